/**
 * The protocol reference, generated from the declarations: one Markdown page per protocol
 * (`packages/codec/docs/protocols/<protocol>.md`, shipped with the package) with, for every
 * message, a byte diagram and a table of its fields (offset, size, wire type, abbreviation,
 * meaning), then the protocol's value tables. Everything on a page is read from the layouts
 * (`layouts`) and their field declarations; nothing is kept by hand.
 *
 *   pnpm docs:protocols        writes the pages (test/protocol-docs.test.ts fails while they differ)
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { layouts, type AnyLayout, type Field } from '@gamequery/codec';
import { kinds, leafKind, numbers, titleOf } from '@gamequery/codec/internal';

/** Where the pages go. */
export const pagesDir = fileURLToPath(new URL('../docs/protocols/', import.meta.url));

/** One table row: a field as it sits on the wire. */
interface Row {
  readonly offset: string;
  readonly size: string;
  readonly type: string;
  readonly abbrev: string;
  readonly meaning: string;
  /** The short name the byte diagram uses. */
  readonly short: string;
}

/** Where the next field starts: a known byte offset, from the message's or an entry's start, or unknown. */
interface Cursor {
  at: number | undefined;
  /** Inside a list entry: offsets are relative to the entry's first byte. */
  readonly relative: boolean;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const hex = (n: number, size: number) => `0x${n.toString(16).padStart(size * 2, '0')}`;
const anchor = (abbrev: string) => `values-${abbrev.replace(/[._]/g, '-')}`;
const shortOf = (abbrev: string) => abbrev.split('.').slice(-1)[0]!;

function meaning(label: string, doc: string | undefined, values: object | undefined, abbrev: string): string {
  const parts = [doc && doc !== label ? `${label}: ${doc}` : label];
  if (values) parts.push(`values: [table](#${anchor(abbrev)})`);
  return parts.join('; ');
}

/** Advances the cursor by `size` bytes (unknown once a size is not a number) and gives the field's offset. */
function place(c: Cursor, size: number | undefined): string {
  const offset = c.at === undefined ? '…' : c.relative ? `+${c.at}` : String(c.at);
  c.at = c.at === undefined || size === undefined ? undefined : c.at + size;
  return offset;
}

function rowsOf(field: Field, c: Cursor, charset: string, tables: Map<string, Readonly<Record<number, string>>>): Row[] {
  switch (field.kind) {
    case 'string': {
      const own = (offset: string, size: string): Row => ({
        offset,
        size,
        type: kinds.string.title(field, charset),
        abbrev: field.abbrev,
        meaning: meaning(field.label, field.doc, undefined, field.abbrev),
        short: shortOf(field.abbrev),
      });
      const size = field.size;
      if ('prefix' in size) {
        const n = numbers[size.prefix].size;
        const len: Row = {
          offset: place(c, n),
          size: String(n),
          type: numbers[size.prefix].title,
          abbrev: `${field.abbrev}.len`,
          meaning: `Length of ${field.label.toLowerCase()} in bytes`,
          short: `${shortOf(field.abbrev)}.len`,
        };
        return [len, own(place(c, undefined), `\`.len\``)];
      }
      if ('fixed' in size) return [own(place(c, size.fixed), String(size.fixed))];
      return [own(place(c, undefined), 'to NUL')];
    }
    case 'group':
      return [
        {
          offset: place(c, 0),
          size: '',
          type: kinds.group.title(field, charset),
          abbrev: field.abbrev,
          meaning: meaning(field.label, field.doc, undefined, field.abbrev),
          short: '',
        },
        ...field.fields.flatMap((f) => rowsOf(f, c, charset, tables)),
      ];
    case 'list': {
      const rows: Row[] = [];
      if (field.count) {
        const n = numbers[field.count.type].size;
        rows.push({
          offset: place(c, n),
          size: String(n),
          type: numbers[field.count.type].title,
          abbrev: field.count.abbrev,
          meaning: meaning(field.count.label, field.count.doc, undefined, field.count.abbrev),
          short: shortOf(field.count.abbrev),
        });
      }
      rows.push({
        offset: place(c, undefined),
        size: '',
        type: kinds.list.title(field, charset),
        abbrev: field.entry.abbrev,
        meaning: meaning(field.entry.label, field.entry.doc, undefined, field.entry.abbrev),
        short: `${shortOf(field.entry.abbrev)}…`,
      });
      const entry: Cursor = { at: 0, relative: true };
      rows.push(...field.entry.fields.flatMap((f) => rowsOf(f, entry, charset, tables)).map((r) => ({ ...r, short: '' })));
      if (field.until) {
        rows.push({
          offset: place(c, 1),
          size: '1',
          type: 'uint8 = 0x00',
          abbrev: field.until.abbrev,
          meaning: meaning(field.until.label, field.until.doc, undefined, field.until.abbrev),
          short: shortOf(field.until.abbrev),
        });
      }
      return rows;
    }
    default: {
      // A leaf: its size and wire type as its kind says (grammar/kinds/).
      const size = leafKind(field).size(field);
      const values = field.kind === 'const' || field.kind === 'int' ? field.values : undefined;
      if (values) tables.set(field.abbrev, values);
      return [
        {
          offset: place(c, size),
          size: String(size),
          type: leafKind(field).title(field, charset),
          abbrev: field.abbrev,
          meaning: meaning(field.label, field.doc, values, field.abbrev),
          short: shortOf(field.abbrev),
        },
      ];
    }
  }
}

function messageSection(layout: AnyLayout, tables: Map<string, Readonly<Record<number, string>>>): string[] {
  const cursor: Cursor = { at: 0, relative: false };
  const rows = layout.fields.flatMap((f) => rowsOf(f, cursor, layout.defaultCharset, tables));
  const diagram = rows.filter((r) => r.short && r.offset[0] !== '+').map((r) => ` ${r.short} (${r.size.replace(/`/g, '') || 'n'}) `);
  const out = [`### ${layout.title}, ${layout.direction} — \`${layout.id}\``, ''];
  if (layout.doc) out.push(layout.doc, '');
  out.push('```', `|${diagram.join('|')}|`, '```', '');
  out.push('| offset | size | type | field | meaning |', '|---:|---:|---|---|---|');
  for (const r of rows) out.push(`| ${r.offset} | ${r.size} | ${cell(r.type)} | \`${r.abbrev}\` | ${cell(r.meaning)} |`);
  out.push('');
  return out;
}

/** The page of each protocol the built-in layouts declare: file name → Markdown. */
export function protocolPages(): Map<string, string> {
  const byProtocol = new Map<string, AnyLayout[]>();
  for (const layout of layouts) byProtocol.set(layout.protocol, [...(byProtocol.get(layout.protocol) ?? []), layout]);
  const pages = new Map<string, string>();
  for (const [protocol, list] of byProtocol) {
    const tables = new Map<string, Readonly<Record<number, string>>>();
    const sections = list.flatMap((layout) => messageSection(layout, tables));
    const title = titleOf(protocol);
    const out = [
      `# ${title} (\`${protocol}\`)`,
      '',
      '<!-- Generated from the declarations in @gamequery/codec by packages/codec/scripts/protocol-docs.ts',
      '     (pnpm docs:protocols). Do not edit: test/protocol-docs.test.ts fails while this page differs. -->',
      '',
      `Every message of the protocol as \`@gamequery/codec\` declares it. Offsets are in bytes from the start of the UDP payload; \`…\` follows a field of variable size, \`+n\` counts from the start of a list entry. Field abbreviations are the display-filter names of \`gamequery dissect -Y\` and of the Wireshark plugin: public API, added and never renamed. Strings are decoded with the charset shown unless the caller gives another.`,
      '',
      '## Messages',
      '',
      ...list.map((l) => `- ${l.title}, ${l.direction}: \`${l.id}\``),
      '',
      ...sections,
    ];
    if (tables.size > 0) {
      out.push('## Value tables', '');
      for (const [abbrev, values] of tables) {
        out.push(`<a id="${anchor(abbrev)}"></a>`, '', `### \`${abbrev}\``, '', '| value | meaning |', '|---:|---|');
        for (const [value, label] of Object.entries(values)) out.push(`| ${hex(Number(value), 1)} (${value}) | ${cell(label)} |`);
        out.push('');
      }
    }
    pages.set(`${protocol}.md`, `${out.join('\n').trimEnd()}\n`);
  }
  return pages;
}

// `pnpm docs:protocols`: writes the pages, removing any of a protocol no longer declared.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pages = protocolPages();
  mkdirSync(pagesDir, { recursive: true });
  for (const name of readdirSync(pagesDir)) if (!pages.has(name)) rmSync(`${pagesDir}${name}`);
  for (const [name, text] of pages) writeFileSync(`${pagesDir}${name}`, text);
  console.log(`wrote ${[...pages.keys()].join(', ')} to ${pagesDir}`);
}
