/**
 * The page script of the consumer's browser check: bundled by esbuild from the installed
 * tarball (not the repository's sources) and served under `script-src 'self'`. Decodes a
 * SA:MP info reply and a Minecraft full-stat reply from `/vectors.json` and leaves on
 * `globalThis.gamequery` what it found, whether the page's own `new Function` was refused
 * and whether the codec could generate code (`codeGeneration`, of the internal entry).
 */
import { decodePacket, fromHex } from '@gamequery/codec';
import { codeGeneration } from '@gamequery/codec/internal';

async function run() {
  let evalRefused: string | undefined;
  try {
    new Function('return 1')();
  } catch (error) {
    evalRefused = (error as Error).name;
  }
  const vectors = (await (await fetch('/vectors.json')).json()) as { sampResponse: string; mcResponse: string };
  const samp = decodePacket(fromHex(vectors.sampResponse));
  const mc = decodePacket(fromHex(vectors.mcResponse), { protocol: 'mcquery', direction: 'response' });
  return {
    evalRefused,
    codeGeneration: codeGeneration(),
    hostname: samp.protocol === 'samp' && samp.direction === 'response' && samp.message === 'info' ? samp.value.hostname : undefined,
    mcPlayers: mc.protocol === 'mcquery' && mc.direction === 'response' && mc.message === 'full' ? mc.value.players : undefined,
  };
}

(globalThis as unknown as { gamequery: Promise<unknown> }).gamequery = run().catch((error: unknown) => ({
  failed: String((error as Error).stack ?? error),
}));
