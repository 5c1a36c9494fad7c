import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, charsets, fromHex, layouts, nodeJson, samp, type Charset, type FieldNode, type QueryLayout } from '@gamequery/codec';
import { ByteSink, internals, type EmitOptions } from '@gamequery/codec/internal';
import type { Field } from '../../src/grammar/fields.ts';
import { secretFields } from '../../src/grammar/kinds/index.ts';
import { commandArb, valueArb } from '../helpers/arbitrary.ts';
import { loadVectors } from '../helpers/vectors.ts';
import { numeric, secretive, synthetic } from '../helpers/synthetic.ts';
import { hostileBytes } from '../../fuzz/codec.ts';
import { mutatedMany } from '../../fuzz/mutate.ts';
import { equal, same } from '../helpers/cheap-expect.ts';

const runs = Number(process.env.GAMEQUERY_PROPERTY_RUNS ?? 150);
type AnyLayout = QueryLayout;

/** Decodes exactly: valid UTF-8 decoding to the same text is the same bytes. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What `emitJsonWithWarnings` must give, from the interpreter: the tree's JSON as `nodeJson` masks it, the value, bytes read and warnings. */
function expected(tree: ReturnType<AnyLayout['annotate']>, showSecrets: boolean) {
  if (tree.error) return undefined;
  return {
    json: JSON.stringify(tree.fields.map((n) => nodeJson(n, showSecrets))),
    value: tree.value,
    info: tree.info,
    bytesRead: tree.bytesRead,
    warnings: tree.warnings,
  };
}

/** A sink of 16 bytes with `offset` bytes in it already, so that it grows mid-node. */
function sinkAt(offset: number): { sink: ByteSink; before: Uint8Array } {
  const sink = new ByteSink(16);
  const before = Uint8Array.from({ length: offset }, (_, i) => (i * 37 + 11) & 0xff);
  sink.bytes(before);
  return { sink, before };
}

/**
 * emitJsonWithWarnings, emitJsonInfo, summarize and emitJson against the interpreter, secrets masked (by default and when
 * asked) and in clear: the same JSON byte for byte, value, bytes read (`decode`'s too, for
 * the real layouts) and warnings; emitJson only for a message without warnings, and for a
 * layout with secrets only when told how to write them. Returns whether the message decodes.
 */
function check(layout: AnyLayout, bytes: Uint8Array, charset: Charset | undefined, offset: number): boolean {
  const secrets = secretFields(layout.fields).size > 0;
  let decodes = false;
  // The interpreter's tree does not depend on showSecrets: how its JSON masks does.
  const tree = layout.annotate(bytes, charset === undefined ? {} : { charset });
  for (const showSecrets of [undefined, false, true]) {
    const options: EmitOptions = { ...(charset === undefined ? {} : { charset }), ...(showSecrets === undefined ? {} : { showSecrets }) };
    const want = expected(tree, showSecrets === true);
    const { sink, before } = sinkAt(offset);
    const got = internals(layout).emitJsonWithWarnings(bytes, sink, options);
    equal(sink.buf.subarray(0, offset), before);
    if (!want) {
      same(got, undefined);
      same(sink.at, offset);
    } else {
      decodes = true;
      expect(got).toBeDefined();
      same(strictUtf8.decode(sink.buf.subarray(offset, sink.at)), want.json);
      equal(got!.value, want.value);
      same(got!.bytesRead, want.bytesRead);
      equal(got!.warnings, want.warnings);
      if (layouts.includes(layout)) same(got!.bytesRead, layout.decode(bytes, options).bytesRead);
    }
    // The summary-only emitter: the same bytes, the summary instead of the value (text not decoded where it is not needed).
    const brief = sinkAt(offset);
    const described = internals(layout).emitJsonInfo(bytes, brief.sink, options);
    equal(brief.sink.buf.subarray(0, offset), before);
    if (!want) {
      same(described, undefined);
      same(brief.sink.at, offset);
    } else {
      same(strictUtf8.decode(brief.sink.buf.subarray(offset, brief.sink.at)), want.json);
      equal(described, { info: want.info, bytesRead: want.bytesRead, warnings: want.warnings });
    }
    // And without writing anything.
    equal(internals(layout).summarize(bytes, options), described);
    const plain = sinkAt(offset);
    const value = internals(layout).emitJson(bytes, plain.sink, options);
    if (want && want.warnings.length === 0 && (!secrets || showSecrets !== undefined)) {
      equal(value, want.value);
      same(strictUtf8.decode(plain.sink.buf.subarray(offset, plain.sink.at)), want.json);
    } else {
      same(value, undefined);
      same(plain.sink.at, offset);
    }
  }
  return decodes;
}

interface Slot {
  readonly offset: number;
  readonly type: 'flag' | 'u8' | 'u16le' | 'u16be';
}

/** Abbreviation → what to raise, of every flag and every count of a list that tolerates being short. */
function warnableFields(fields: readonly Field[], out = new Map<string, Slot['type']>()): Map<string, Slot['type']> {
  for (const f of fields) {
    if (f.kind === 'bool') out.set(f.abbrev, 'flag');
    else if (f.kind === 'group') warnableFields(f.fields, out);
    else if (f.kind === 'list') {
      const type = f.count?.type;
      if (f.tolerateShort && (type === 'u8' || type === 'u16le' || type === 'u16be')) out.set(f.count!.abbrev, type);
      warnableFields(f.entry.fields, out);
    }
  }
  return out;
}

const vectors = loadVectors();
const all: readonly AnyLayout[] = [...layouts, synthetic, secretive, numeric];

describe.each(all.map((l) => [l.id, l] as const))('%s: emitJsonWithWarnings', (_, layout) => {
  it('writes the tree of every test vector, of any layout, cut and extended, with its warnings', () => {
    for (const v of vectors) {
      const bytes = fromHex(v.hex);
      check(layout, bytes, v.charset, 3);
      check(layout, bytes.subarray(0, bytes.length - 1), v.charset, 0);
      check(layout, Uint8Array.of(...bytes, 0, 0x22, 0x5c), v.charset, 5);
    }
  });

  it('writes random valid values in every charset, with and without trailing bytes', () => {
    for (const charset of charsets) {
      const values =
        layout === samp.rconRequest
          ? fc.tuple(valueArb(layout, charset), commandArb).map(([v, command]) => ({ ...v, command }))
          : valueArb(layout, charset);
      fc.assert(
        fc.property(values, fc.uint8Array({ maxLength: 3 }), fc.nat(40), (value, tail, offset) => {
          let bytes: Uint8Array;
          try {
            bytes = layout.encode(value, { charset });
          } catch (e) {
            if (e instanceof CodecError) return; // a command the charset cannot encode
            throw e;
          }
          expect(check(layout, bytes, charset, offset)).toBe(true);
          check(layout, Uint8Array.of(...bytes, ...tail), charset, offset);
        }),
        { numRuns: Math.ceil(runs / 4), seed: 41 },
      );
    }
  });

  it('writes flag bytes above 1 and counts above the entries present, with their warnings', () => {
    const slots = (bytes: Uint8Array): Slot[] => {
      const out: Slot[] = [];
      const walk = (nodes: readonly FieldNode[]): void => {
        for (const n of nodes) {
          const type = warnable.get(n.abbrev);
          if (type) out.push({ offset: n.offset, type });
          if (n.children) walk(n.children);
        }
      };
      walk(layout.annotate(bytes).fields);
      return out;
    };
    const warnable = warnableFields(layout.fields);
    if (warnable.size === 0) return;
    const edited = valueArb(layout).chain((value) => {
      const bytes = layout.encode(value);
      const found = slots(bytes);
      if (found.length === 0) return fc.constant(bytes);
      return fc.tuple(fc.subarray(found, { minLength: 1 }), fc.integer({ min: 1, max: 254 })).map(([chosen, k]) => {
        const b = bytes.slice();
        const view = new DataView(b.buffer);
        for (const { offset, type } of chosen) {
          if (type === 'flag') b[offset] = 1 + k;
          else if (type === 'u8') b[offset] = Math.min(0xff, b[offset]! + (k % 3) + 1);
          else view.setUint16(offset, Math.min(0xffff, view.getUint16(offset, type === 'u16le') + (k % 3) + 1), type === 'u16le');
        }
        return b;
      });
    });
    fc.assert(
      fc.property(edited, fc.nat(40), (bytes, offset) => {
        check(layout, bytes, undefined, offset);
      }),
      { numRuns: runs, seed: 47 },
    );
  });

  it('writes damaged bytes as the interpreter does, or declines where it stops', () => {
    const damaged = layouts.includes(layout) ? hostileBytes(layout) : valueArb(layout).chain((value) => mutatedMany(layout.encode(value)));
    fc.assert(
      fc.property(damaged, fc.option(fc.constantFrom(...charsets), { nil: undefined }), fc.nat(40), (bytes, charset, offset) => {
        check(layout, bytes, charset, offset);
      }),
      { numRuns: runs, seed: 43 },
    );
  });
});

describe('emitJsonWithWarnings', () => {
  // "SAMP" 127.0.0.1:7777 'x' | 05 00 "wrong" | 17 00 "rcon_password se\cr"et1" | ab cd (trailing)
  const request = fromHex('53414d507f000001611e78 0500 77726f6e67 1700 72636f6e5f70617373776f72642073655c637222657431 abcd');
  // What `gamequery dissect -F ndjson` printed for these bytes as "fields" (commit 8d5144a, from the tree), without and with --show-secrets;
  // a masked node marked `"masked":true` since 29 November.
  const masked =
    '[{"abbrev":"samp.magic","label":"Magic","offset":0,"length":4,"value":"SAMP","show":"SAMP"},{"abbrev":"samp.server_ip","label":"Server IP","offset":4,"length":4,"value":"127.0.0.1","show":"127.0.0.1"},{"abbrev":"samp.server_port","label":"Server port","offset":8,"length":2,"value":7777,"show":"7777"},{"abbrev":"samp.opcode","label":"Opcode","offset":10,"length":1,"value":120,"show":"x (RCON command) (0x78)"},{"abbrev":"samp.rcon.password.len","label":"Password length","offset":11,"length":2,"value":5,"show":"5"},{"abbrev":"samp.rcon.password","label":"Password","offset":13,"length":5,"value":"********","show":"********","masked":true},{"abbrev":"samp.rcon.command.len","label":"Command length","offset":18,"length":2,"value":23,"show":"23"},{"abbrev":"samp.rcon.command","label":"Command","offset":20,"length":23,"value":"rcon_password ********","show":"rcon_password ********","masked":true}]';
  const clear =
    '[{"abbrev":"samp.magic","label":"Magic","offset":0,"length":4,"value":"SAMP","show":"SAMP"},{"abbrev":"samp.server_ip","label":"Server IP","offset":4,"length":4,"value":"127.0.0.1","show":"127.0.0.1"},{"abbrev":"samp.server_port","label":"Server port","offset":8,"length":2,"value":7777,"show":"7777"},{"abbrev":"samp.opcode","label":"Opcode","offset":10,"length":1,"value":120,"show":"x (RCON command) (0x78)"},{"abbrev":"samp.rcon.password.len","label":"Password length","offset":11,"length":2,"value":5,"show":"5"},{"abbrev":"samp.rcon.password","label":"Password","offset":13,"length":5,"value":"wrong","show":"wrong"},{"abbrev":"samp.rcon.command.len","label":"Command length","offset":18,"length":2,"value":23,"show":"23"},{"abbrev":"samp.rcon.command","label":"Command","offset":20,"length":23,"value":"rcon_password se\\\\cr\\"et1","show":"rcon_password se\\\\\\\\cr\\"et1"}]';

  it('writes an RCON request as the dissector prints it, masked by default and in clear when asked, with its trailing bytes as a warning', () => {
    for (const [options, json] of [
      [{}, masked],
      [{ showSecrets: false }, masked],
      [{ showSecrets: true }, clear],
    ] as const) {
      const sink = new ByteSink();
      const r = internals(samp.rconRequest).emitJsonWithWarnings(request, sink, options);
      expect(sink.text()).toBe(json);
      expect(r).toEqual({
        value: { serverIp: '127.0.0.1', serverPort: 7777, password: 'wrong', command: 'rcon_password se\\cr"et1' },
        bytesRead: 43,
        warnings: [{ code: 'trailing-bytes', field: 'trailing', offset: 43, message: '2 bytes after the end of the message at offset 43' }],
      });
      // Without the trailing bytes emitJson writes it too, once told how to write secrets.
      const exact = request.subarray(0, 43);
      expect(internals(samp.rconRequest).emitJson(exact, new ByteSink(), {})).toBeUndefined();
      const s2 = new ByteSink();
      expect(internals(samp.rconRequest).emitJson(exact, s2, { showSecrets: options.showSecrets ?? false })).toEqual(r!.value);
      expect(s2.text()).toBe(json);
      expect(internals(samp.rconRequest).annotateJson(exact, { showSecrets: options.showSecrets ?? false })?.json).toBe(json);
    }
  });

  it('writes a flag byte above 1 and a list shorter than its count, with the warnings annotate gives', () => {
    // "SAMP" 127.0.0.1:7777 'i' | password 02 | players 01 00 | max 02 00 | "a" "b" "c"
    const info = fromHex('53414d507f000001611e69 02 0100 0200 0100000061 0100000062 0100000063');
    const r = internals(samp.infoResponse).emitJsonWithWarnings(info, new ByteSink());
    expect(r?.value).toMatchObject({ password: true });
    expect(r?.warnings).toEqual(samp.infoResponse.annotate(info).warnings);
    expect(r?.warnings.map((w) => w.field)).toEqual(['samp.info.password']);
    // header 'd' | count 03 00 | id 01, name "ab", score -1, ping 5 | id 02, name "c", score 3, ping 6
    const d = fromHex('53414d507f000001611e64 0300 01 02 6162 ffffffff 05000000 02 01 63 03000000 06000000');
    const p = internals(samp.playersResponse).emitJsonWithWarnings(d, new ByteSink());
    expect(p?.warnings).toEqual(samp.playersResponse.annotate(d).warnings);
    expect(p?.warnings.map((w) => w.field)).toEqual(['samp.players.count']);
    expect(check(samp.playersResponse, d, undefined, 7)).toBe(true);
    expect(check(samp.infoResponse, info, undefined, 7)).toBe(true);
  });

  it('reads a short string under `auto` in the light of the ASCII text before it, though that text is copied, not decoded', () => {
    // 'r' | 1 rule: "welcome to our little server friends " = 80 b8. Read alone, 80 b8 is Cyrillic (Ђё); the
    // lowercase words before it in the reply make it Latin (€¸), and the summary-only emitter never decodes them.
    const words = Array.from(new TextEncoder().encode('welcome to our little server friends '), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
    const rules = fromHex(`53414d507f000001611e72 0100 25 ${words} 02 80b8`);
    const want = JSON.stringify(samp.rulesResponse.annotate(rules, { charset: 'auto' }).fields.map((n) => nodeJson(n, false)));
    expect(want).toContain('"value":"€¸"');
    const sink = new ByteSink();
    expect(internals(samp.rulesResponse).emitJsonInfo(rules, sink, { charset: 'auto' })).toBeDefined();
    expect(sink.text()).toBe(want);
    expect(check(samp.rulesResponse, rules, 'auto', 3)).toBe(true);
    // Nothing is decoded when nothing is written, and the rule after one read that way is still read as Latin.
    const two = fromHex(`53414d507f000001611e72 0200 25 ${words} 01 41 02 80b8 01 41`);
    expect(samp.rulesResponse.annotate(two, { charset: 'auto' }).value!.rules[1]!.name).toBe('€¸');
    expect(check(samp.rulesResponse, two, 'auto', 0)).toBe(true);
  });

  it('summarizes text that other text precedes as the tree reads it, under `auto`, though it decodes none of that text', () => {
    // tags: "welcome to our little server friends " | name "x" | flags | note: 02 80 ec | ...: 80 ec reads as
    // Latin (€ì) after the lowercase words, as Cyrillic (Ђм) without them.
    const value = {
      tags: [],
      name: 'x',
      on: false,
      mask: 0,
      kind: 0,
      note: '',
      code: 'ABCD',
      delta: 0,
      raw: new Uint8Array(3),
      addr: '1.2.3.4',
      items: [],
      total: 0,
      pairs: [],
    };
    const withNote = (tags: string[]): Uint8Array => {
      const b = synthetic.encode({ ...value, tags } as never, { charset: 'windows-1252' });
      const at = b.indexOf(0x78) + 2 + 4; // the note's length byte, after "x\0" and the flags
      return Uint8Array.of(...b.subarray(0, at), 2, 0x80, 0xec, ...b.subarray(at + 1));
    };
    const cases = [
      [withNote(['welcome to our little server friends ']), '"€ì"'],
      [withNote([]), '"Ђм"'],
    ] as const;
    for (const [bytes, note] of cases) {
      const info = synthetic.annotate(bytes, { charset: 'auto' }).info;
      expect(info).toBe(`SA:MP synthetic response: ${note} false 0 1.2.3.4`);
      expect(internals(synthetic).summarize(bytes, { charset: 'auto' })?.info).toBe(info);
      expect(internals(synthetic).emitJsonInfo(bytes, new ByteSink(), { charset: 'auto' })?.info).toBe(info);
    }
  });
});
