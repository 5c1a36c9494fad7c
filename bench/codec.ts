/** Codec throughput: compiled decoder, annotating decode, encoder, against a hand-written parser. */
import { CodecError, fromHex, identify, nodeJson, signatureOf, mcquery, samp, type QueryLayout } from '@gamequery/codec';
import { ByteSink, interpretedLayout, internals } from '@gamequery/codec/internal';
import { benchGroup } from './harness.ts';
import { benchCharset } from './charset.ts';
import { parseInfo, parsePlayers } from './baseline/samp.ts';

export function benchCodec(): void {
  const info = samp.infoResponse.encode({
    serverIp: '127.0.0.1',
    serverPort: 7777,
    password: false,
    players: 13,
    maxPlayers: 250,
    hostname: 'My SA-MP Server',
    gamemode: 'Freeroam',
    language: 'English',
  });
  if (info.length !== 58) throw new Error(`info reply is ${info.length} bytes, expected 58`);
  const players = Array.from({ length: 100 }, (_, i) => ({
    id: i,
    name: `Player_${'x'.repeat(i % 14)}${i}`,
    score: i * 37 - 500,
    ping: 20 + (i % 200),
  }));
  const d = samp.playersResponse.encode({ serverIp: '127.0.0.1', serverPort: 7777, players });

  // Each decoder must agree with the baseline before it is timed.
  if (JSON.stringify(samp.infoResponse.decode(info).value) !== JSON.stringify(parseInfo(info))) throw new Error('info decoders disagree');
  if (JSON.stringify(samp.playersResponse.decode(d).value) !== JSON.stringify(parsePlayers(d))) throw new Error('d decoders disagree');

  const infoValue = samp.infoResponse.decode(info).value;
  const dValue = samp.playersResponse.decode(d).value;
  benchGroup(`SA:MP i response (${info.length} bytes), decode`, 'packets', [
    { name: 'hand-written baseline parser', run: () => parseInfo(info) },
    { name: 'codec decode (compiled binary-parser)', run: () => samp.infoResponse.decode(info) },
    { name: 'codec annotate (interpreted, with offsets)', run: () => samp.infoResponse.annotate(info) },
  ]);
  benchGroup(`SA:MP d response, 100 players (${d.length} bytes), decode`, 'packets', [
    { name: 'hand-written baseline parser', run: () => parsePlayers(d) },
    { name: 'codec decode (compiled binary-parser)', run: () => samp.playersResponse.decode(d) },
    { name: 'codec annotate (interpreted, with offsets)', run: () => samp.playersResponse.annotate(d) },
  ]);
  // The dissector's JSON tree: generic (annotate, nodeJson, JSON.stringify) against the compiled emitter.
  const treeJson = (layout: QueryLayout, bytes: Uint8Array): string =>
    JSON.stringify(layout.annotate(bytes).fields.map((n) => nodeJson(n, false)));
  // The dissector's way: one sink, reused, that NDJSON lines are written into.
  const sink = new ByteSink();
  const emit = (layout: QueryLayout, bytes: Uint8Array): number => {
    sink.at = 0;
    internals(layout).emitJson(bytes, sink);
    return sink.at;
  };
  for (const [layout, bytes] of [
    [samp.infoResponse, info],
    [samp.playersResponse, d],
  ] as const) {
    if (internals(layout).annotateJson(bytes)?.json !== treeJson(layout, bytes)) throw new Error(`${layout.id}: the JSON trees disagree`);
    emit(layout, bytes);
    if (sink.text(0) !== treeJson(layout, bytes)) throw new Error(`${layout.id}: emitJson writes another tree`);
  }
  for (const [what, layout, bytes] of [
    ['i response', samp.infoResponse, info],
    ['d response, 100 players', samp.playersResponse, d],
  ] as const) {
    benchGroup(`SA:MP ${what}: the annotated tree as JSON text (what the dissector writes)`, 'packets', [
      { name: 'annotate + nodeJson + JSON.stringify', run: () => treeJson(layout, bytes) },
      { name: 'annotateJson (compiled from the declaration)', run: () => internals(layout).annotateJson(bytes)!.json.length },
      { name: 'emitJson into a reused ByteSink (UTF-8 bytes)', run: () => emit(layout, bytes) },
    ]);
  }
  benchInterpreted([
    ['i response', samp.infoResponse, info],
    ['d response, 100 players', samp.playersResponse, d],
  ]);
  benchRcon(treeJson);
  benchMeasure([
    ['i response', samp.infoResponse, info],
    ['d response, 100 players', samp.playersResponse, d],
    ['Minecraft full stat, 20 players', mcquery.fullResponse, fullStat()],
  ]);
  benchGroup('encode', 'packets', [
    { name: 'SA:MP i response: encode', run: () => samp.infoResponse.encode(infoValue) },
    { name: 'SA:MP d response, 100 players: encode', run: () => samp.playersResponse.encode(dValue) },
  ]);
  benchCharset();
}

/**
 * Where code cannot be generated (a Content-Security-Policy without 'unsafe-eval'), every
 * layout interprets its declaration: decode, emitJson and measure of the same bytes, compiled
 * against `interpretedLayout`'s copy, the path a strict CSP page takes.
 */
function benchInterpreted(cases: readonly (readonly [string, QueryLayout, Uint8Array])[]): void {
  const sink = new ByteSink();
  const emit = (layout: QueryLayout, bytes: Uint8Array): number => {
    sink.at = 0;
    internals(layout).emitJson(bytes, sink);
    return sink.at;
  };
  for (const [what, layout, bytes] of cases) {
    const slow = interpretedLayout(layout);
    if (JSON.stringify(slow.annotateJson(bytes)) !== JSON.stringify(internals(layout).annotateJson(bytes)))
      throw new Error(`${layout.id}: the interpreter disagrees`);
    benchGroup(`SA:MP ${what}: compiled, and interpreted (no code generation: strict CSP)`, 'packets', [
      { name: 'decode, compiled (binary-parser)', run: () => layout.decode(bytes) },
      { name: 'decode, interpreted', run: () => slow.decode(bytes) },
      { name: 'emitJson, compiled', run: () => emit(layout, bytes) },
      { name: 'emitJson, interpreted', run: () => emit(slow, bytes) },
      { name: 'measure, compiled', run: () => internals(layout).measure(bytes) },
      { name: 'measure, interpreted', run: () => slow.measure(bytes) },
    ]);
  }
}

/**
 * RCON: recognised by its length prefixes (`measure`) against the way it was before, decoding
 * request and reply in turn until one does not throw; and a request's tree as JSON, its
 * password masked, compiled (`emitJsonWithWarnings`) against the tree the dissector took before.
 */
function benchRcon(treeJson: (layout: QueryLayout, bytes: Uint8Array) => string): void {
  const request = samp.rconRequest.encode({ serverIp: '127.0.0.1', serverPort: 7777, password: 'changeme', command: 'players' });
  const reply = samp.rconResponse.encode({ serverIp: '127.0.0.1', serverPort: 7777, output: 'Invalid RCON password.' });
  // The old recognition of an RCON datagram: the signature and opcode, then the first layout that decodes it exactly.
  const tryDecodes = (bytes: Uint8Array): QueryLayout | undefined => {
    if (signatureOf(bytes) !== 'samp' || bytes.length < 11 || bytes[10] !== 0x78) return undefined;
    let fallback: QueryLayout | undefined;
    for (const l of [samp.rconRequest, samp.rconResponse]) {
      try {
        if (l.decode(bytes).bytesRead === bytes.length) return l;
        fallback ??= l;
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
      }
    }
    return fallback ?? samp.rconRequest;
  };
  for (const [what, bytes, layout] of [
    ['reply', reply, samp.rconResponse],
    ['request', request, samp.rconRequest],
  ] as const) {
    if (identify(bytes)?.layout !== layout || tryDecodes(bytes) !== layout) throw new Error(`RCON ${what}: recognised as something else`);
    benchGroup(`SA:MP x (RCON) ${what} (${bytes.length} bytes): recognise without a hint`, 'packets', [
      { name: 'decode each layout until one fits (before)', run: () => tryDecodes(bytes) },
      { name: 'identify (length prefixes, measure)', run: () => identify(bytes) },
    ]);
  }
  const sink = new ByteSink();
  const masked = treeJson(samp.rconRequest, request);
  sink.at = 0;
  internals(samp.rconRequest).emitJsonWithWarnings(request, sink);
  if (sink.text(0) !== masked) throw new Error('RCON request: emitJsonWithWarnings writes another tree');
  benchGroup('SA:MP x (RCON) request: the annotated tree as JSON, password masked', 'packets', [
    { name: 'annotate + nodeJson + JSON.stringify (before)', run: () => treeJson(samp.rconRequest, request) },
    {
      name: 'emitJsonWithWarnings into a reused ByteSink',
      run: () => {
        sink.at = 0;
        internals(samp.rconRequest).emitJsonWithWarnings(request, sink);
        return sink.at;
      },
    },
    {
      name: 'emitJson, { showSecrets: false }',
      run: () => {
        sink.at = 0;
        internals(samp.rconRequest).emitJson(request, sink, { showSecrets: false });
        return sink.at;
      },
    },
  ]);
}

/** A Minecraft full-stat reply with 20 players, as vanilla servers send it. */
function fullStat(): Uint8Array {
  const kv = Object.entries({
    hostname: 'A Minecraft Server',
    gametype: 'SMP',
    game_id: 'MINECRAFT',
    version: '1.20.4',
    plugins: '',
    map: 'world',
    numplayers: '20',
    maxplayers: '20',
    hostport: '25565',
    hostip: '127.0.0.1',
  }).map(([key, value]) => ({ key, value }));
  const players = Array.from({ length: 20 }, (_, i) => `Player${i}_${'x'.repeat(i % 7)}`);
  return mcquery.fullResponse.encode({ sessionId: 1, splitnum: fromHex('73706c69746e756d008000'), kv, players });
}

/** Whether a datagram decodes, and how far: `measure` (lengths, counts, constants) against `decode`. */
function benchMeasure(cases: readonly (readonly [string, QueryLayout, Uint8Array])[]): void {
  for (const [what, layout, bytes] of cases) {
    if (internals(layout).measure(bytes) !== layout.decode(bytes).bytesRead) throw new Error(`${layout.id}: measure and decode disagree`);
    benchGroup(`${what} (${bytes.length} bytes): does it decode, and how far?`, 'packets', [
      { name: 'decode (compiled binary-parser)', run: () => layout.decode(bytes).bytesRead },
      { name: 'measure (compiled from the declaration)', run: () => internals(layout).measure(bytes) },
    ]);
  }
}
