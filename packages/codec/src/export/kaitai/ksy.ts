/**
 * Kaitai Struct definitions generated from the layout declarations: one `.ksy` per
 * message layout (`samp_info_response.ksy`), each a complete parser for one datagram.
 *
 * One file per layout, not one per protocol, because a .ksy describes a format that can
 * be parsed from its bytes alone, and these messages cannot all be: a SA:MP `p` reply is
 * byte-identical to its request, a Minecraft reply has no magic and basic vs full stat
 * depends on the request. The caller knows which message it holds and picks the file,
 * exactly as it picks a layout in the codec; a per-protocol switch would need that choice
 * passed in as a parameter anyway. Shared parts (headers) are small and repeated inline.
 *
 * Mapping of the field kinds (Kaitai style guide names):
 * - a number → its wire type's Kaitai type (grammar/numbers.ts: `u1` … `s4`, `u8`, `f4`, `f8`), its
 *   byte order spelt out where it is not the file's (`u2be` in a little-endian file).
 * - magic → `contents`; const → an integer with `valid` (and an `enum` when it has a
 *   value table: opcodes, Minecraft packet types).
 * - length-prefixed string → `len_<name>` + `size: len_<name>`; counted list → `num_<name>`.
 * - text is kept as raw bytes: none of these protocols says its charset (SA:MP servers
 *   send windows-1252 or -1251, Minecraft latin1 or UTF-8), so the consumer decodes it, as
 *   the codec's `charset` option does. Decimal numbers written as text are `str` with a
 *   `valid` check and a value instance `<name>` = `<name>_str.to_i`.
 * - a counted list that may end early (servers hiding players) is `repeat: until` on
 *   `<name>.size >= num_<name> or _io.eof`, guarded by `if: num_<name> > 0`.
 * - a list ended by an empty first string is `repeat: until` on that string being empty;
 *   the entry's other fields are read only when it is not, so the last entry is the
 *   terminator itself: consumers drop it (`kv.slice(0, -1)`).
 */
import type { Field, ListField, NumberType, ValueTable } from '../../grammar/fields.ts';
import { numbers } from '../../grammar/numbers.ts';
import { leafKind } from '../../grammar/kinds/index.ts';
import type { AnyLayout } from '../../grammar/layout.ts';
import { buildRegistry } from '../../grammar/registry.ts';
import type { ProtocolDeclaration } from '../../grammar/protocol.ts';
import { layouts } from '../../packet.ts';
import { builtInProtocols } from '../../protocols/index.ts';
import { Flow, Raw, toYaml, type YamlValue } from './yaml.ts';

type Attr = Record<string, YamlValue | undefined>;

/** Byte order a protocol's files declare in `meta/endian` (its declaration's); other fields spell theirs out. */
const declaredEndian = (protocol: string, own: readonly ProtocolDeclaration[]): 'le' | 'be' | undefined =>
  (own.find((p) => p.name === protocol) ?? (builtInProtocols as readonly ProtocolDeclaration[]).find((p) => p.name === protocol))?.endian;

/** The number types of a field list, lists and groups included. */
function* numberTypes(fields: readonly Field[]): Generator<NumberType> {
  for (const f of fields) {
    if (f.kind === 'int' || f.kind === 'const') yield f.type;
    else if (f.kind === 'string' && 'prefix' in f.size) yield f.size.prefix;
    else if (f.kind === 'group') yield* numberTypes(f.fields);
    else if (f.kind === 'list') {
      if (f.count) yield f.count.type;
      yield* numberTypes(f.entry.fields);
    }
  }
}

/** A protocol's declared byte order, or for an undeclared one the order most of the layout's multi-byte integers have (ties: little-endian). */
function endianOf(layout: AnyLayout, own: readonly ProtocolDeclaration[]): 'le' | 'be' {
  const known = declaredEndian(layout.protocol, own);
  if (known) return known;
  let balance = 0;
  for (const t of numberTypes(layout.fields)) balance += numbers[t].endian === 'be' ? 1 : numbers[t].endian === 'le' ? -1 : 0;
  return balance > 0 ? 'be' : 'le';
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const lastSegment = (abbrev: string): string => abbrev.slice(abbrev.lastIndexOf('.') + 1);
const identifier = (label: string): string =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
const hex = (n: number, width: number): Raw => new Raw(`0x${n.toString(16).padStart(width * 2, '0')}`);
/** Where one layout's types and enums are collected while its fields are mapped. */
interface Scope {
  readonly endian: 'le' | 'be';
  /** Each registered field's description, by abbreviation. */
  readonly docs: ReadonlyMap<string, string>;
  readonly types: Map<string, Attr>;
  readonly enums: Map<string, Map<Raw, string>>;
}

/** A number's Kaitai type: its byte order spelt out where it is not the file's. */
function intType(t: NumberType, scope: Scope): string {
  const { kaitai, endian } = numbers[t];
  return endian === undefined || endian === scope.endian ? kaitai : `${kaitai}${endian}`;
}

function enumOf(abbrev: string, values: ValueTable, scope: Scope): string {
  const name = lastSegment(abbrev);
  const members = new Map<Raw, string>();
  const used = new Set<string>();
  for (const [value, label] of Object.entries(values).sort(([a], [b]) => Number(a) - Number(b))) {
    // Two values of one label (a code and its older spelling): Kaitai wants each member's id
    // once, so a later one is named with its value too (`mac_6f`).
    let id = identifier(label);
    if (used.has(id)) id = `${id}_${Number(value).toString(16)}`;
    used.add(id);
    members.set(hex(Number(value), 1), id);
  }
  scope.enums.set(name, members);
  return name;
}

function contents(bytes: Uint8Array, text: boolean): YamlValue {
  const printable = (b: number): boolean => b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c;
  if (text && bytes.every(printable)) return String.fromCharCode(...bytes);
  if (!text) return new Flow([...bytes].map((b) => hex(b, 1)));
  // Text with unprintable bytes: runs of text, other bytes as numbers ("player_\0" → [player_, 0x00]).
  const items: YamlValue[] = [];
  let run = '';
  for (const b of bytes) {
    if (printable(b)) run += String.fromCharCode(b);
    else {
      if (run) items.push(run);
      run = '';
      items.push(hex(b, 1));
    }
  }
  if (run) items.push(run);
  return new Flow(items);
}

const I32_RANGE = '_.to_i >= -2147483648 and _.to_i <= 2147483647';
const U32_RANGE = '_.to_i >= 0 and _.to_i <= 4294967295';

/** The seq attributes of one field (a length-prefixed string or counted list gives two). */
function attrs(f: Field, scope: Scope, instances: Map<string, Attr>, siblings: ReadonlySet<string>): Attr[] {
  switch (f.kind) {
    case 'magic':
      return [{ id: lastSegment(f.abbrev), contents: contents(f.bytes, f.display === 'text'), doc: f.doc ?? f.label }];
    case 'const': {
      const name = f.values ? enumOf(f.abbrev, f.values, scope) : undefined;
      const valid = name
        ? new Raw(`${name}::${identifier(f.values![f.value]!)}`)
        : f.base === 'dec'
          ? f.value
          : hex(f.value, numbers[f.type].size);
      return [{ id: lastSegment(f.abbrev), type: intType(f.type, scope), enum: name, valid, doc: f.doc ?? f.label }];
    }
    case 'string': {
      const id = snake(f.name);
      const size = f.size;
      const head: Attr[] = [];
      const extent: Attr = {};
      if ('prefix' in size) {
        head.push({ id: `len_${id}`, type: intType(size.prefix, scope), doc: scope.docs.get(`${f.abbrev}.len`) || undefined });
        extent.size = `len_${id}`;
      } else if ('fixed' in size) {
        Object.assign(extent, { size: size.fixed, terminator: 0 });
      } else {
        extent.terminator = 0;
      }
      const doc = f.doc ?? f.label;
      if (!f.numeric) {
        return [...head, { id, ...extent, doc: `${doc}; text in the server's charset, as raw bytes` }];
      }
      // Decimal text: a str checked like the codec checks it (canonical, in range), and its value.
      instances.set(id, { value: `${id}_str.to_i`, doc: `${f.label} as a number (${f.numeric})` });
      const range = f.numeric === 'i32' ? I32_RANGE : U32_RANGE;
      const zero = 'terminator' in size;
      return [
        ...head,
        {
          id: `${id}_str`,
          type: zero ? 'strz' : 'str',
          ...(zero ? {} : extent),
          valid: { expr: `_.to_i.to_s == _ and ${range}` },
          doc,
        },
      ];
    }
    case 'list':
      return listAttrs(f, scope, siblings);
    case 'group': {
      // A subtype named after the group; `_section` when a field inside or beside has that name.
      const inner = new Set(namesOf(f.fields));
      const base = lastSegment(f.abbrev);
      const id = inner.has(base) || siblings.has(base) ? `${base}_section` : base;
      scope.types.set(id, typeOf(f.fields, scope, f.doc ?? f.label));
      return [{ id, type: id, doc: f.doc ?? f.label }];
    }
    default: {
      // A number, a flag, an address, bytes: as their kinds say (grammar/kinds/).
      const { type, size, note = '' } = leafKind(f).kaitai!(f);
      const values = f.kind === 'int' ? f.values : undefined;
      const attr = { id: snake(f.name), type: type && intType(type, scope), size, enum: values && enumOf(f.abbrev, values, scope) };
      return [{ ...attr, doc: `${f.doc ?? f.label}${note}` }];
    }
  }
}

function listAttrs(f: ListField, scope: Scope, siblings: ReadonlySet<string>): Attr[] {
  const id = snake(f.name);
  const first = f.entry.fields[0]!;
  const firstAttr = attrs(first, scope, new Map(), siblings).at(-1)!;
  const firstId = firstAttr.id as string;
  // The element: the single field of a flat list, else an entry type of its own.
  let element: Attr;
  if (f.flat) {
    const { id: _, doc: __, ...rest } = firstAttr;
    element = rest;
  } else {
    const typeName = lastSegment(f.entry.abbrev);
    const type = typeOf(f.entry.fields, scope, f.entry.doc ?? f.entry.label);
    if (f.until) {
      // Only the terminator's first string is on the wire: the rest waits for a non-empty one.
      type.seq = (type.seq as Attr[]).map((a) => (a.id === firstId ? a : { ...a, if: `${firstId}.length != 0` }));
    }
    scope.types.set(typeName, type);
    element = { type: typeName };
  }
  const doc = f.flat ? ('doc' in first && first.doc) || f.entry.label : (f.entry.doc ?? f.entry.label);
  if (f.count) {
    const count = `num_${id}`;
    const head: Attr = { id: count, type: intType(f.count.type, scope), doc: f.count.doc ?? (scope.docs.get(f.count.abbrev) || undefined) };
    if (!f.tolerateShort) return [head, { id, ...element, repeat: 'expr', 'repeat-expr': count, doc }];
    return [
      head,
      {
        id,
        ...element,
        if: `${count} > 0`,
        repeat: 'until',
        'repeat-until': `${id}.size >= ${count} or _io.eof`,
        doc: `${doc}; may hold fewer than ${count} entries when the message ends between two`,
      },
    ];
  }
  return [
    {
      id,
      ...element,
      repeat: 'until',
      'repeat-until': f.flat ? '_.length == 0' : `_.${firstId}.length == 0`,
      doc: `${doc}; the last entry is the empty ${f.flat ? 'string' : firstId} that ends the list: drop it`,
    },
  ];
}

function namesOf(fields: readonly Field[]): string[] {
  return fields.flatMap((f) => ('name' in f ? [snake(f.name)] : 'abbrev' in f ? [lastSegment(f.abbrev)] : []));
}

function typeOf(fields: readonly Field[], scope: Scope, doc?: string): Attr {
  const instances = new Map<string, Attr>();
  const siblings = new Set(namesOf(fields));
  const seq = fields.flatMap((f) => attrs(f, scope, instances, siblings));
  return { doc, seq, instances: instances.size ? instances : undefined };
}

function ksy(layout: AnyLayout, docs: ReadonlyMap<string, string>, own: readonly ProtocolDeclaration[]): YamlValue {
  const scope: Scope = { endian: endianOf(layout, own), docs, types: new Map(), enums: new Map() };
  const id = layout.id.replace(/\./g, '_');
  const body = typeOf(layout.fields, scope);
  const usesStr = /"type":"strz?"/.test(JSON.stringify([body.seq, ...[...scope.types.values()].map((t) => t.seq)]));
  return {
    meta: {
      id,
      title: `${layout.protocolName} ${layout.title.toLowerCase()} ${layout.direction}`,
      // Ours; a layout of the caller's own is under whatever licence its author gives it.
      license: (layouts as readonly AnyLayout[]).includes(layout) ? 'MIT' : undefined,
      'ks-version': '0.11',
      endian: scope.endian,
      encoding: usesStr ? 'ASCII' : undefined,
    },
    doc:
      `${layout.doc ? `${layout.doc} ` : ''}One UDP payload: layout ${layout.id} of gamequery, generated from its declaration (do not edit).` +
      ` Text fields are raw bytes; gamequery decodes them as ${layout.defaultCharset} unless told otherwise.`,
    seq: body.seq,
    instances: body.instances,
    types: scope.types.size ? scope.types : undefined,
    enums: scope.enums.size ? scope.enums : undefined,
  } as YamlValue;
}

/** What the .ksy files need beyond the layouts. */
export interface KaitaiOptions {
  /** Declarations of the caller's own protocols (see `defineProtocol`): their byte order. */
  readonly protocols?: readonly ProtocolDeclaration[];
}

/**
 * Each layout of `selection` (default: every built-in one; any made by `defineLayout`, yours
 * included) as a .ksy file, by file name (`samp_info_response.ksy`).
 */
export function exportKaitai(selection: readonly AnyLayout[] = layouts, options: KaitaiOptions = {}): Map<string, string> {
  const docs = new Map(buildRegistry(selection).map((r) => [r.abbrev, r.doc]));
  return new Map(selection.map((l) => [`${l.id.replace(/\./g, '_')}.ksy`, toYaml(ksy(l, docs, options.protocols ?? []))]));
}
