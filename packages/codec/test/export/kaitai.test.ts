/**
 * The generated .ksy files, checked with the real Kaitai Struct compiler and runtime:
 * every file compiles to JavaScript, every valid test vector parses to the values our
 * codec decodes, and every error vector makes the Kaitai parser throw.
 */
import { afterAll, describe, expect, it } from 'vitest';
import KaitaiStructCompiler from 'kaitai-struct-compiler';
import KaitaiRuntime from 'kaitai-struct';
import { parse as parseYaml } from 'yaml';
import { fromHex, layoutFor, layouts, toHex, type Charset, type Field } from '@gamequery/codec';
import { textCodec } from '@gamequery/codec/internal';
import { defineLayout, u8 } from '@gamequery/codec/define';
import { exportKaitai } from '../../src/export/index.ts';
import { loadVectors } from '../helpers/vectors.ts';

// kaitai-struct's index.d.ts types KaitaiStream as its module ({ default: the class }); the script's export is the class itself.
const { KaitaiStream } = KaitaiRuntime as unknown as { KaitaiStream: (typeof KaitaiRuntime.KaitaiStream)['default'] };
const vectors = loadVectors();
const files = exportKaitai();

type Ks = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the classes the Kaitai compiler generates at run time are untyped
type Parser = new (io: unknown) => Ks;

/** Compiles one .ksy text and loads the generated UMD module with the runtime. */
async function load(ksyText: string): Promise<Parser> {
  const ksy = parseYaml(ksyText) as { meta: { id: string } };
  const out = (await KaitaiStructCompiler.compile('javascript', ksy, null, false)) as Record<string, string>;
  const className = ksy.meta.id.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  const code = out[`${className}.js`];
  if (!code) throw new Error(`no ${className}.js in ${Object.keys(out).join(', ')}`);
  const module = { exports: {} as Record<string, Parser> };
  const require = (name: string): unknown => {
    if (name === 'kaitai-struct/KaitaiStream') return KaitaiStream;
    throw new Error(`unexpected require(${name})`);
  };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports[className]!;
}

const parsers = new Map<string, Parser>();
const parserFor = async (layoutId: string): Promise<Parser> => {
  let p = parsers.get(layoutId);
  if (!p) parsers.set(layoutId, (p = await load(files.get(`${layoutId.replace(/\./g, '_')}.ksy`)!)));
  return p;
};

const parse = (P: Parser, bytes: Uint8Array): Ks => new P(new KaitaiStream(bytes.slice().buffer));

const lastSegment = (abbrev: string): string => abbrev.slice(abbrev.lastIndexOf('.') + 1);
const camel = (id: string): string => id.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const names = (fields: readonly Field[]): string[] =>
  fields.flatMap((f) => ('name' in f ? [f.name] : 'abbrev' in f ? [lastSegment(f.abbrev)] : []));

let valuesCompared = 0;

/**
 * Walks a declaration over a Kaitai object and the codec's value: Kaitai attributes are
 * the snake_case ids of the .ksy, which the JavaScript target turns back into our names.
 */
function compare(fields: readonly Field[], ks: Ks, value: Record<string, unknown>, charset: Charset, path: string): void {
  const siblings = new Set(names(fields));
  for (const f of fields) {
    const at = `${path}/${'abbrev' in f ? f.abbrev : f.name}`;
    valuesCompared++;
    switch (f.kind) {
      case 'magic':
        expect(toHex(ks[camel(lastSegment(f.abbrev))]), at).toBe(toHex(f.bytes));
        break;
      case 'const':
        expect(ks[camel(lastSegment(f.abbrev))], at).toBe(f.value);
        break;
      case 'int':
        expect(ks[f.name], at).toBe(value[f.name]);
        break;
      case 'bool':
        expect(ks[f.name] !== 0, at).toBe(value[f.name]);
        break;
      case 'ipv4':
        expect([...(ks[f.name] as Uint8Array)].join('.'), at).toBe(value[f.name]);
        break;
      case 'bytes':
        expect(toHex(ks[f.name]), at).toBe(toHex(value[f.name] as Uint8Array));
        break;
      case 'string':
        if (f.numeric) {
          expect(ks[f.name], at).toBe(value[f.name]);
          expect(ks[`${f.name}Str`], at).toBe(String(value[f.name]));
        } else {
          // Raw bytes in the .ksy; decoded here with the codec's own tables (Node's TextDecoder
          // gets windows-125x wrong).
          expect(textCodec(charset).decode(ks[f.name]), at).toBe(value[f.name]);
        }
        break;
      case 'list': {
        let items: Ks[] = ks[f.name] ?? [];
        // A terminated list ends with its terminator entry, which consumers drop.
        if (f.until) {
          const end = items.at(-1);
          expect(
            f.flat ? end?.length : end?.[f.entry.fields[0] && 'name' in f.entry.fields[0] ? f.entry.fields[0].name : '']?.length,
            `${at} terminator`,
          ).toBe(0);
          items = items.slice(0, -1);
        }
        const want = value[f.name] as unknown[];
        expect(items.length, `${at} entries`).toBe(want.length);
        items.forEach((item, i) => {
          if (f.flat)
            compare(
              f.entry.fields,
              { [(f.entry.fields[0] as { name: string }).name]: item },
              { [(f.entry.fields[0] as { name: string }).name]: want[i] },
              charset,
              `${at}[${i}]`,
            );
          else compare(f.entry.fields, item, want[i] as Record<string, unknown>, charset, `${at}[${i}]`);
        });
        break;
      }
      case 'group': {
        const base = lastSegment(f.abbrev);
        const id = names(f.fields).includes(base) || siblings.has(base) ? `${base}_section` : base;
        compare(f.fields, ks[camel(id)], value, charset, at);
        break;
      }
    }
  }
}

/** Kaitai's error for each of the codec's error types (a missing terminator is a plain Error). */
const kaitaiErrors: Record<string, RegExp> = {
  // RangeError: the JavaScript runtime's readBytes does `length |= 0`, so a u4 length of 2^31
  // or more (a garbage prefix) turns negative and fails in the typed-array constructor instead.
  TruncatedError: /^EOFError|^Error: End of stream reached, but no terminator|^RangeError: Invalid typed array length/,
  BadMagicError: /^ValidationNotEqualError/,
  UnexpectedValueError: /^ValidationNotEqualError/,
  InvalidValueError: /^ValidationExprError/,
};

describe('Kaitai Struct export', () => {
  it("writes one .ksy per layout, in the style guide's shape", () => {
    expect([...files.keys()].sort()).toEqual(layouts.map((l) => `${l.id.replace(/\./g, '_')}.ksy`).sort());
    for (const [name, text] of files) {
      const ksy = parseYaml(text);
      expect(`${ksy.meta.id}.ksy`).toBe(name);
      expect(ksy.meta.title).toBeTruthy();
      expect(['le', 'be']).toContain(ksy.meta.endian);
      const types = [ksy, ...Object.values(ksy.types ?? {})] as { seq: Record<string, unknown>[] }[];
      for (const t of types) {
        for (const a of t.seq) {
          expect(a.id, name).toMatch(/^[a-z][a-z0-9_]*$/);
          expect(a.doc, `${name} ${a.id}`).toBeTruthy();
          if (typeof a.size === 'string') expect(a.size).toMatch(/^len_/);
          if (a['repeat-expr']) expect(a['repeat-expr']).toMatch(/^num_/);
        }
      }
    }
  });

  it('names two values of one label apart, so that the .ksy still compiles', async () => {
    const shared = defineLayout({
      protocol: 'acme',
      message: 'os',
      direction: 'response',
      title: 'Two codes, one label',
      fields: [u8('os', { abbrev: 'acme.os.os', label: 'OS', values: { 0x6d: 'Mac', 0x6f: 'Mac', 0x77: 'Windows' } })],
    });
    const text = exportKaitai([shared]).get('acme_os_response.ksy')!;
    const members = (parseYaml(text) as { enums: Record<string, Record<string, string>> }).enums['os']!;
    expect(members).toEqual({ 0x6d: 'mac', 0x6f: 'mac_6f', 0x77: 'windows' });
    const P = await load(text);
    expect(parse(P, Uint8Array.of(0x6f)).os).toBe(0x6f);
  });

  it('compiles every .ksy with kaitai-struct-compiler', async () => {
    for (const l of layouts) expect(await parserFor(l.id), l.id).toBeTypeOf('function');
  });

  it.each(vectors.filter((v) => v.value).map((v) => [v.id, v] as const))("parses %s to the codec's values", async (_, v) => {
    const layout = layoutFor(v.protocol, v.message, v.direction);
    const bytes = fromHex(v.hex);
    const charset = (v.charset ?? layout.defaultCharset) as Charset;
    const decoded = layout.decode(bytes, { charset }).value as Record<string, unknown>;
    compare(layout.fields, parse(await parserFor(layout.id), bytes), decoded, charset, v.id);
  });

  it.each(vectors.filter((v) => v.error).map((v) => [v.id, v] as const))('rejects %s', async (_, v) => {
    const P = await parserFor(v.layout);
    let error: unknown;
    try {
      parse(P, fromHex(v.hex));
    } catch (e) {
      error = e;
    }
    expect(error, 'Kaitai returned a value').toBeInstanceOf(Error);
    expect(`${(error as Error).name}: ${(error as Error).message}`).toMatch(kaitaiErrors[v.error!.type]!);
  });
});

afterAll(() => console.info(`kaitai.test.ts: ${valuesCompared} values compared with the codec`));
