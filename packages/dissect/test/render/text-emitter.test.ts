import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, charsets, fromHex, layouts, nodeJson, samp, type AnyLayout, type Charset, type FieldNode } from '@gamequery/codec';
import { ByteSink, MASK, internals, interpretedLayout } from '@gamequery/codec/internal';
import { emitFields, emitText } from '../../src/render/text-emitter/index.ts';
import { commandArb, valueArb } from '../../../codec/test/helpers/arbitrary.ts';
import { abbrevsOf } from '../../../codec/test/helpers/answers.ts';
import { loadVectors } from '../../../codec/test/helpers/vectors.ts';
import { numeric, secretive, synthetic } from '../../../codec/test/helpers/synthetic.ts';
import { hostileBytes } from '../../../codec/fuzz/codec.ts';
import { mutatedMany } from '../../../codec/fuzz/mutate.ts';
import { a2sMessages } from '../../../codec/test/fixtures/protocols/a2s/protocol.ts';
import { equal, same } from '../../../codec/test/helpers/cheap-expect.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);

/** Decodes exactly: valid UTF-8 decoding to the same text is the same bytes. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = new TextEncoder();
/** Text as the dissector's output carries it, as UTF-8: a lone surrogate (half of a pair a redaction cut) as U+FFFD. */
const output = (text: string): string => strictUtf8.decode(utf8.encode(text));

/* The interpreter's tree as the dissector's text and `-e` outputs show it (render/text.ts, render/packet.ts). */

const shownOf = (n: FieldNode, clear: boolean): string => (n.secret && !clear ? (n.masked ?? MASK) : n.show);

function* walk(nodes: readonly FieldNode[], depth = 0): Generator<[FieldNode, number]> {
  for (const n of nodes) {
    yield [n, depth];
    if (n.children) yield* walk(n.children, depth + 1);
  }
}

/** `renderTree(fields, { showSecrets, indent })`, a newline after each line. */
function treeText(nodes: readonly FieldNode[], clear: boolean, indent: number): string {
  let out = '';
  for (const [n, depth] of walk(nodes, indent)) {
    const show = shownOf(n, clear);
    out += `${' '.repeat(depth * 4)}${show === '' ? n.label : `${n.label}: ${show}`}\n`;
  }
  return out;
}

/** The text `-e` lines of the selected nodes. */
function pickedText(nodes: readonly FieldNode[], pick: readonly string[], clear: boolean): string {
  let out = '';
  for (const [n] of walk(nodes)) if (pick.includes(n.abbrev)) out += `    ${n.abbrev}: ${shownOf(n, clear)}\n`;
  return out;
}

/** The JSON `-e` nodes: `nodeJson` without children, each followed by a comma. */
function pickedJson(nodes: readonly FieldNode[], pick: readonly string[], clear: boolean): string {
  let out = '';
  for (const [n] of walk(nodes)) if (pick.includes(n.abbrev)) out += `${JSON.stringify({ ...nodeJson(n, clear), children: undefined })},`;
  return out;
}

/** A sink of 16 bytes with `offset` bytes in it already, so that it grows mid-line. */
function sinkAt(offset: number): { sink: ByteSink; before: Uint8Array } {
  const sink = new ByteSink(16);
  const before = Uint8Array.from({ length: offset }, (_, i) => (i * 37 + 11) & 0xff);
  sink.bytes(before);
  return { sink, before };
}

/** Runs `write` into a sink at `offset`: what it wrote, or undefined where it declined (and then checks it left the sink be). */
function written(offset: number, write: (sink: ByteSink) => number | undefined): { text: string; read: number } | undefined {
  const { sink, before } = sinkAt(offset);
  const read = write(sink);
  equal(sink.buf.subarray(0, offset), before);
  if (read === undefined) {
    same(sink.at, offset);
    return undefined;
  }
  return { text: strictUtf8.decode(sink.buf.subarray(offset, sink.at)), read };
}

/**
 * emitText (indent 0 to 2) and emitFields (text and JSON, `pick`) against the interpreter's
 * tree, secrets masked (by default and when asked) and in clear: the same text byte for
 * byte and the bytes read, or a decline exactly where annotate reports an error. Returns
 * whether the message decodes.
 */
function check(layout: AnyLayout, bytes: Uint8Array, charset: Charset | undefined, offset: number, pick: readonly string[] = []): boolean {
  const codec = charset === undefined ? {} : { charset };
  const tree = layout.annotate(bytes, codec);
  for (const showSecrets of [undefined, false, true]) {
    const clear = showSecrets === true;
    const options = { ...codec, ...(showSecrets === undefined ? {} : { showSecrets }) };
    for (const indent of [undefined, 1, 2]) {
      const got = written(offset, (sink) =>
        emitText(internals(layout), bytes, sink, { ...options, ...(indent === undefined ? {} : { indent }) }),
      );
      if (tree.error) same(got, undefined);
      else equal(got, { text: output(treeText(tree.fields, clear, indent ?? 0)), read: tree.bytesRead });
    }
    const text = written(offset, (sink) => emitFields(internals(layout), bytes, sink, pick, 'text', options));
    const json = written(offset, (sink) => emitFields(internals(layout), bytes, sink, [...pick], 'json', options));
    if (tree.error) {
      same(text, undefined);
      same(json, undefined);
    } else {
      equal(text, { text: output(pickedText(tree.fields, pick, clear)), read: tree.bytesRead });
      equal(json, { text: output(pickedJson(tree.fields, pick, clear)), read: tree.bytesRead });
    }
  }
  return !tree.error;
}

const vectors = loadVectors();
// The A2S fixture is declared through the public API with the floats and the 64-bit integers.
const a2s = Object.values(a2sMessages).flatMap((m) => [m.request, m.response]);
const all: readonly AnyLayout[] = [...layouts, synthetic, secretive, numeric, ...a2s];

describe.each(all.map((l) => [l.id, l] as const))('%s: emitText and emitFields', (_, layout) => {
  const abbrevs = abbrevsOf(layout.fields);
  // Some of the layout's abbreviations, in any order, with one it does not have.
  const pickArb = fc.subarray([...abbrevs, 'samp.nowhere'], { minLength: 1 }).chain((a) => fc.shuffledSubarray(a, { minLength: a.length }));

  it('writes the tree of every test vector, of any layout, cut and extended, and every field of it', () => {
    for (const v of vectors) {
      const bytes = fromHex(v.hex);
      check(layout, bytes, v.charset, 3, abbrevs);
      check(layout, bytes.subarray(0, bytes.length - 1), v.charset, 0, abbrevs.slice(0, 3));
      check(layout, Uint8Array.of(...bytes, 0, 0x22, 0x5c), v.charset, 5, abbrevs.slice(-2));
    }
  });

  it('writes random valid values in every charset, with and without trailing bytes, with any selection', () => {
    for (const charset of charsets) {
      const values =
        layout === samp.rconRequest
          ? fc.tuple(valueArb(layout, charset), commandArb).map(([v, command]) => ({ ...v, command }))
          : valueArb(layout, charset);
      fc.assert(
        fc.property(values, fc.uint8Array({ maxLength: 3 }), fc.nat(40), pickArb, (value, tail, offset, pick) => {
          let bytes: Uint8Array;
          try {
            bytes = layout.encode(value, { charset });
          } catch (e) {
            if (e instanceof CodecError) return; // a command the charset cannot encode
            throw e;
          }
          expect(check(layout, bytes, charset, offset, pick)).toBe(true);
          check(layout, Uint8Array.of(...bytes, ...tail), charset, offset, pick);
        }),
        { numRuns: Math.ceil(runs / 4), seed: 53 },
      );
    }
  });

  it('writes damaged bytes as the interpreter does, or declines where it stops', () => {
    const builtIn = layouts.find((l) => l === layout);
    const damaged = builtIn ? hostileBytes(builtIn) : valueArb(layout).chain((value) => mutatedMany(layout.encode(value)));
    fc.assert(
      fc.property(
        damaged,
        fc.option(fc.constantFrom(...charsets), { nil: undefined }),
        fc.nat(40),
        pickArb,
        (bytes, charset, offset, pick) => {
          check(layout, bytes, charset, offset, pick);
        },
      ),
      { numRuns: runs, seed: 59 },
    );
  });
});

describe('emitText', () => {
  it('writes an RCON request masked by default and in clear when asked, past its trailing bytes', () => {
    // "SAMP" 127.0.0.1:7777 'x' | 05 00 "wrong" | 17 00 "rcon_password se\cr"et1" | ab cd (trailing)
    const request = fromHex('53414d507f000001611e78 0500 77726f6e67 1700 72636f6e5f70617373776f72642073655c637222657431 abcd');
    const lines = (showSecrets?: boolean): string => {
      const sink = new ByteSink();
      expect(
        emitText(internals(samp.rconRequest), request, sink, { indent: 1, ...(showSecrets === undefined ? {} : { showSecrets }) }),
      ).toBe(43);
      return sink.text();
    };
    const masked = [
      '    Magic: SAMP',
      '    Server IP: 127.0.0.1',
      '    Server port: 7777',
      '    Opcode: x (RCON command) (0x78)',
      '    Password length: 5',
      '    Password: ********',
      '    Command length: 23',
      '    Command: rcon_password ********',
      '',
    ].join('\n');
    expect(lines()).toBe(masked);
    expect(lines(false)).toBe(masked);
    expect(lines(true)).toBe(
      masked.replace('Password: ********', 'Password: wrong').replace('rcon_password ********', 'rcon_password se\\\\cr"et1'),
    );
  });

  it('writes a flag byte above 1, a list shorter than its count, and an empty string as the label alone', () => {
    // "SAMP" 127.0.0.1:7777 'i' | password 02 | players 01 00 | max 02 00 | "" "b" "c"
    const info = fromHex('53414d507f000001611e69 02 0100 0200 00000000 0100000062 0100000063');
    const sink = new ByteSink();
    expect(emitText(internals(samp.infoResponse), info, sink)).toBe(info.length);
    expect(sink.text().split('\n')).toEqual(expect.arrayContaining(['Password: Yes (2)', 'Hostname length: 0', 'Hostname']));
    // header 'd' | count 03 00 | id 01, name "ab", score -1, ping 5 | id 02, name "c", score 3, ping 6
    const d = fromHex('53414d507f000001611e64 0300 01 02 6162 ffffffff 05000000 02 01 63 03000000 06000000');
    const players = new ByteSink();
    expect(emitText(internals(samp.playersResponse), d, players)).toBe(d.length);
    expect(players.text()).toContain('Player count: 3\nPlayer: #1 ab (-1, 5 ms)\n    ID: 1\n');
    expect(check(samp.playersResponse, d, undefined, 7, ['samp.player', 'samp.player.name'])).toBe(true);
  });

  it('declines a cut message, leaving the sink where it was', () => {
    const sink = new ByteSink();
    sink.ascii('kept');
    expect(emitText(internals(samp.infoResponse), fromHex('53414d507f000001611e69 00 0100'), sink)).toBeUndefined();
    expect(sink.text()).toBe('kept');
  });
});

describe('where no code is generated', () => {
  it('has no text emitter for an interpreting layout (a CSP without unsafe-eval): the caller renders the tree', () => {
    const bytes = samp.infoResponse.encode({
      serverIp: '127.0.0.1',
      serverPort: 7777,
      password: false,
      players: 1,
      maxPlayers: 2,
      hostname: 'h',
      gamemode: 'g',
      language: 'l',
    });
    const interpreting = internals(interpretedLayout(samp.infoResponse));
    expect(interpreting.generatesCode()).toBe(false);
    const sink = new ByteSink(16);
    expect(emitText(interpreting, bytes, sink)).toBeUndefined();
    expect(emitFields(interpreting, bytes, sink, ['samp.info.hostname'], 'text')).toBeUndefined();
    expect(sink.at).toBe(0);
    // The compiled layout writes what the tree shows.
    expect(emitText(internals(samp.infoResponse), bytes, sink)).toBe(bytes.length);
    expect(sink.text(0)).toBe(output(treeText(samp.infoResponse.annotate(bytes).fields, false, 0)));
  });
});
