/** Codec throughput: compiled decoder, annotating decode, encoder, against a hand-written parser. */
import { ByteSink, infoResponse, nodeJson, playersResponse, type Layout } from '@gamequery/codec';
import { benchGroup } from './harness.ts';
import { parseInfo, parsePlayers } from './baseline/samp.ts';

export function benchCodec(): void {
  const info = infoResponse.encode({
    serverIp: '127.0.0.1', serverPort: 7777, password: false, players: 13, maxPlayers: 250,
    hostname: 'My SA-MP Server', gamemode: 'Freeroam', language: 'English',
  });
  if (info.length !== 58) throw new Error(`info reply is ${info.length} bytes, expected 58`);
  const players = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `Player_${'x'.repeat(i % 14)}${i}`, score: i * 37 - 500, ping: 20 + (i % 200) }));
  const d = playersResponse.encode({ serverIp: '127.0.0.1', serverPort: 7777, players });

  // Each decoder must agree with the baseline before it is timed.
  if (JSON.stringify(infoResponse.decode(info).value) !== JSON.stringify(parseInfo(info))) throw new Error('info decoders disagree');
  if (JSON.stringify(playersResponse.decode(d).value) !== JSON.stringify(parsePlayers(d))) throw new Error('d decoders disagree');

  const infoValue = infoResponse.decode(info).value;
  const dValue = playersResponse.decode(d).value;
  benchGroup(`SA:MP i response (${info.length} bytes), decode`, 'packets', [
    { name: 'hand-written baseline parser', run: () => parseInfo(info) },
    { name: 'codec decode (compiled binary-parser)', run: () => infoResponse.decode(info) },
    { name: 'codec annotate (interpreted, with offsets)', run: () => infoResponse.annotate(info) },
  ]);
  benchGroup(`SA:MP d response, 100 players (${d.length} bytes), decode`, 'packets', [
    { name: 'hand-written baseline parser', run: () => parsePlayers(d) },
    { name: 'codec decode (compiled binary-parser)', run: () => playersResponse.decode(d) },
    { name: 'codec annotate (interpreted, with offsets)', run: () => playersResponse.annotate(d) },
  ]);
  // The dissector's JSON tree: generic (annotate, nodeJson, JSON.stringify) against the compiled emitter.
  const treeJson = (layout: Layout<any>, bytes: Uint8Array): string => JSON.stringify(layout.annotate(bytes).fields.map((n) => nodeJson(n, false))); // eslint-disable-line @typescript-eslint/no-explicit-any
  // The dissector's way: one sink, reused, that NDJSON lines are written into.
  const sink = new ByteSink();
  const emit = (layout: Layout<any>, bytes: Uint8Array): number => { // eslint-disable-line @typescript-eslint/no-explicit-any
    sink.at = 0;
    layout.emitJson(bytes, sink);
    return sink.at;
  };
  for (const [layout, bytes] of [[infoResponse, info], [playersResponse, d]] as const) {
    if (layout.annotateJson(bytes)?.json !== treeJson(layout, bytes)) throw new Error(`${layout.id}: the JSON trees disagree`);
    emit(layout, bytes);
    if (sink.text(0) !== treeJson(layout, bytes)) throw new Error(`${layout.id}: emitJson writes another tree`);
  }
  for (const [what, layout, bytes] of [['i response', infoResponse, info], ['d response, 100 players', playersResponse, d]] as const) {
    benchGroup(`SA:MP ${what}: the annotated tree as JSON text (what the dissector writes)`, 'packets', [
      { name: 'annotate + nodeJson + JSON.stringify', run: () => treeJson(layout, bytes) },
      { name: 'annotateJson (compiled from the declaration)', run: () => layout.annotateJson(bytes)!.json.length },
      { name: 'emitJson into a reused ByteSink (UTF-8 bytes)', run: () => emit(layout, bytes) },
    ]);
  }
  benchGroup('encode', 'packets', [
    { name: 'SA:MP i response: encode', run: () => infoResponse.encode(infoValue) },
    { name: 'SA:MP d response, 100 players: encode', run: () => playersResponse.encode(dValue) },
  ]);
}
