/**
 * A hand-written SA:MP parser for the `i` and `d` replies: the baseline the compiled
 * decoder is measured against. Straight DataView reads, the same text codec as the
 * codec uses, bounds checks that throw. Not used anywhere but the benchmark.
 */
import { textCodec } from '@gamequery/codec/internal';

const text = textCodec('windows-1252');

function need(b: Uint8Array, at: number, n: number): void {
  if (at + n > b.length) throw new RangeError(`need ${n} bytes at ${at}`);
}

function header(b: Uint8Array, view: DataView, op: number): { serverIp: string; serverPort: number } {
  need(b, 0, 11);
  if (b[0] !== 0x53 || b[1] !== 0x41 || b[2] !== 0x4d || b[3] !== 0x50 || b[10] !== op) throw new Error('bad header');
  return { serverIp: `${b[4]}.${b[5]}.${b[6]}.${b[7]}`, serverPort: view.getUint16(8, true) };
}

export function parseInfo(b: Uint8Array) {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const { serverIp, serverPort } = header(b, view, 0x69);
  need(b, 11, 9);
  const password = b[11] !== 0;
  const players = view.getUint16(12, true);
  const maxPlayers = view.getUint16(14, true);
  let at = 16;
  const str32 = (): string => {
    need(b, at, 4);
    const n = view.getUint32(at, true);
    at += 4;
    need(b, at, n);
    const s = text.decode(b.subarray(at, at + n));
    at += n;
    return s;
  };
  const hostname = str32();
  const gamemode = str32();
  const language = str32();
  return { serverIp, serverPort, password, players, maxPlayers, hostname, gamemode, language };
}

export function parsePlayers(b: Uint8Array) {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const { serverIp, serverPort } = header(b, view, 0x64);
  need(b, 11, 2);
  const count = view.getUint16(11, true);
  let at = 13;
  const players: { id: number; name: string; score: number; ping: number }[] = [];
  for (let i = 0; i < count; i++) {
    need(b, at, 2);
    const id = b[at]!;
    const n = b[at + 1]!;
    at += 2;
    need(b, at, n + 8);
    const name = text.decode(b.subarray(at, at + n));
    at += n;
    players.push({ id, name, score: view.getInt32(at, true), ping: view.getUint32(at + 4, true) });
    at += 8;
  }
  return { serverIp, serverPort, players };
}
