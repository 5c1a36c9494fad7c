/**
 * The Wireshark plugin, generated from the layout declarations: one Lua file with a
 * `Proto` per protocol whose `ProtoField`s are the field registry's rows, the layouts
 * emitted as Lua tables (`SPEC`), and one generic interpreter (`runtime.lua`)
 * that walks them. Nothing here or in the runtime is written per field or per layout.
 *
 * Install: copy the output into Wireshark's personal Lua plugins folder
 * (`~/.local/lib/wireshark/plugins/`, or `$XDG_CONFIG_HOME/wireshark/plugins/`), or run
 * `tshark -X lua_script:gamequery.lua`.
 */
import { charsets, textCodec } from '../../grammar/charset.ts';
import type { Field, NumberType } from '../../grammar/fields.ts';
import { fixedSize, fieldKind, sizeOf } from '../../grammar/kinds/index.ts';
import { numbers } from '../../grammar/numbers.ts';
import { internals, type AnyLayout } from '../../grammar/layout.ts';
import type { BuiltInProtocol as Protocol } from '../../protocols/index.ts';
import { buildRegistry, type RegisteredField } from '../../grammar/registry.ts';
import type { ProtocolDeclaration, RecognitionHint } from '../../grammar/protocol.ts';
import { layouts } from '../../packet.ts';
import { builtInProtocols } from '../../protocols/index.ts';
import { toLua } from './lua.ts';
import { luaRuntime } from './runtime.lua.ts';
import { declaresSecrets, luaSecret } from './secrets.ts';
import { MASK } from '../../grammar/display.ts';
import { expertAbbrev, protocolExperts, type ExpertInfo } from '../../grammar/expert.ts';

/** The ports each dissector claims in `udp.port` (Decode As), from each protocol's declaration; heuristics cover every other port. */
export const wiresharkPorts: Readonly<Record<Protocol, readonly number[]>> = Object.fromEntries(
  builtInProtocols.map((p) => [p.name, p.ports]),
) as Record<Protocol, readonly number[]>;

/** The declaration of protocol `name`: the caller's own first, then the built-in ones. */
const declarationOf = (name: string, own: readonly ProtocolDeclaration[] = []): ProtocolDeclaration | undefined =>
  own.find((p) => p.name === name) ?? (builtInProtocols as readonly ProtocolDeclaration[]).find((p) => p.name === name);

type LuaTable = Record<string, unknown>;

/** How the runtime reads a number of type `t` (numbers.ts): size, byte order, signedness, float. */
const intSpec = (t: NumberType): LuaTable => numbers[t].lua;

/** A field declaration as the Lua walker reads it (keys: k = kind, a = abbreviation; the rest its kind's, grammar/kinds/). */
const luaField = (f: Field): LuaTable => ({
  k: f.kind,
  ...('abbrev' in f ? { a: f.abbrev } : {}),
  ...('name' in f ? { name: f.name } : {}),
  ...fieldKind(f).lua?.(f, luaField),
  ...luaSecret(f),
});

interface Placed {
  readonly field: Field;
  readonly offset: number;
  readonly size: number;
}

/** The leading fields at fixed offsets, up to the first one of variable size. */
function fixedPrefix(fields: readonly Field[]): Placed[] {
  const out: Placed[] = [];
  let offset = 0;
  for (const field of fields) {
    const size = fixedSize(field);
    if (size === undefined) break;
    out.push({ field, offset, size });
    offset += size;
  }
  return out;
}

const ECHOABLE = new Set(['const', 'int', 'bool', 'ipv4', 'bytes']);

const abbrevOf = (f: Field): string | undefined => ('abbrev' in f ? f.abbrev : undefined);

/**
 * The fields a reply repeats from its request (same abbreviation, at fixed offsets in
 * both), as `{ request offset, reply offset, size }`: the key that pairs them.
 */
function echoedKey(request: AnyLayout, response: AnyLayout): [number, number, number][] {
  const reply = new Map(fixedPrefix(response.fields).map((p) => [abbrevOf(p.field), p]));
  const key: [number, number, number][] = [];
  for (const p of fixedPrefix(request.fields)) {
    if (!ECHOABLE.has(p.field.kind)) continue;
    const r = reply.get(abbrevOf(p.field));
    if (r && r.size === p.size) key.push([p.offset, r.offset, p.size]);
  }
  return key;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The Info-column template of a layout, read back through its public `describe`: a
 * value whose every property is its own `{name}` placeholder fills the template with
 * itself. A value of zeros then shows which placeholders `describe` writes in hex, and
 * their width in bytes (`0x00000000`: 4).
 */
function infoTemplate(layout: AnyLayout): { template: string; hex: Record<string, number> } | undefined {
  const every = (v: (key: string) => unknown) =>
    new Proxy({}, { has: () => true, get: (_, k) => (typeof k === 'string' ? v(k) : undefined) });
  const head = `${layout.protocolName} ${layout.message} ${layout.direction}: `;
  const text = internals(layout).describe(every((k) => `{${k}}`) as Partial<unknown>);
  if (!text.startsWith(head)) return undefined;
  const template = text.slice(head.length);
  const keys = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map(escapeRegExp)
      .join('(0x0+|0)')}$`,
  );
  const zeros = internals(layout)
    .describe(every(() => 0) as Partial<unknown>)
    .slice(head.length)
    .match(pattern);
  if (!zeros) throw new Error(`${layout.id}: cannot read the info template back from "${text}"`);
  const hex: Record<string, number> = {};
  keys.forEach((k, i) => {
    if (zeros[i + 1]!.startsWith('0x')) hex[k] = (zeros[i + 1]!.length - 2) / 2;
  });
  return { template, hex };
}

/**
 * What recognition looks at beyond the declarations to tell two layouts of one direction and
 * selector apart, as each protocol declares it (a full-stat reply's split header; open.mp's
 * echo form by its length). Requests mostly need none: an exact fixed size settles them.
 */
function luaLayout(layout: AnyLayout, hints: Readonly<Record<string, RecognitionHint>>): LuaTable {
  const prefix = fixedPrefix(layout.fields);
  const first = layout.fields[0];
  const selector = prefix.find((p) => p.field.kind === 'const');
  const sel = selector?.field.kind === 'const' ? selector.field : undefined;
  const hint = hints[layout.id];
  return {
    id: layout.id,
    message: layout.message,
    direction: layout.direction,
    info: infoTemplate(layout),
    size: sizeOf(layout.fields),
    magic: first?.kind === 'magic' ? first.bytes : undefined,
    selector: sel && selector ? { a: sel.abbrev, offset: selector.offset, ...intSpec(sel.type), value: sel.value } : undefined,
    secrets: declaresSecrets(layout) || undefined,
    hint: hint ? { offset: hint.offset, bytes: Uint8Array.from(hint.bytes), min: hint.lengths?.[0], max: hint.lengths?.[1] } : undefined,
    fields: layout.fields.map(luaField),
  };
}

/** What the plugin needs beyond the layouts: the UDP ports each protocol claims (Decode As). */
export interface WiresharkOptions {
  /** Ports by protocol name; default: the protocol's declared ports ({@link wiresharkPorts}), none for a protocol without a declaration (heuristics only). */
  readonly ports?: Readonly<Record<string, readonly number[]>>;
  /** Declarations of the caller's own protocols (see `defineProtocol`): their ports, titles, recognition hints and symmetric messages. */
  readonly protocols?: readonly ProtocolDeclaration[];
}

/**
 * Request/response pairs of a protocol's messages in the selection: `symmetric` where the
 * built-in protocol says so (a `p` reply is its request), `lines` where it is answered in
 * lines (RCON), and the key a reply echoes from
 * its request (empty where only one direction is selected: replies then pair by endpoints).
 */
function pairsOf(declared: ProtocolDeclaration | undefined, mine: readonly AnyLayout[]): LuaTable {
  const pairs: LuaTable = {};
  for (const name of new Set(mine.map((l) => l.message))) {
    const builtIn = declared?.messages[name];
    // A form may share its request with another message (open.mp's banners `o` reply answers samp.omp.request).
    const request = mine.find((l) => l.message === name && l.direction === 'request') ?? mine.find((l) => l === builtIn?.request);
    const response = mine.find((l) => l.message === name && l.direction === 'response');
    pairs[name] = {
      symmetric: builtIn?.symmetric ?? false,
      // Answered in lines (RCON): each line is a reply with its response time; a second reply to another request is a copy or extra, without one.
      lines: declared?.answeredInLines?.includes(name) ?? false,
      key: request && response ? echoedKey(request, response) : [],
    };
  }
  return pairs;
}

/** The expert item abbreviation of a warning code in `protocol`: `samp.expert.short_list` (a code's `-` as `_`, as abbreviations spell it). */
export const wiresharkExpertAbbrev: (protocol: string, code: string) => string = expertAbbrev;

/**
 * The expert items the plugin registers for a protocol, from the declared tables: the
 * grammar's generic kinds, then the protocol's own. The runtime raises each by its code.
 */
export const wiresharkExperts = (declared: ProtocolDeclaration | undefined): readonly ExpertInfo[] => protocolExperts(declared);

function luaProtocol(
  protocol: string,
  mine: readonly AnyLayout[],
  registry: readonly RegisteredField<string>[],
  ports: readonly number[],
  declared: ProtocolDeclaration | undefined,
): LuaTable {
  const magics: Uint8Array[] = [];
  for (const l of mine) {
    const f = l.fields[0];
    if (f?.kind === 'magic' && !magics.some((m) => m.length === f.bytes.length && m.every((b, i) => b === f.bytes[i])))
      magics.push(f.bytes);
  }
  const display = mine[0]!.protocolName;
  return {
    name: protocol,
    description: titleIn(declared, display),
    display,
    short: display,
    ports,
    charset: mine[0]!.defaultCharset,
    fields: registry.filter((r) => r.protocol === protocol).map((r) => [r.abbrev, r.label, r.type, r.base, r.values, r.doc || undefined]),
    magics,
    experts: wiresharkExperts(declared).map((e) => ({ code: e.code, a: wiresharkExpertAbbrev(protocol, e.code) })),
    secrets: mine.some(declaresSecrets) || undefined,
    layouts: mine.map((l) => luaLayout(l, declared?.recognitionHints ?? {})),
    pairs: pairsOf(declared, mine),
  };
}

/** A protocol's title in Wireshark (its tree item): its declaration's, else made from its layouts' short title. */
const titleIn = (declared: ProtocolDeclaration | undefined, shortTitle: string): string =>
  declared?.title ?? `${shortTitle} Query Protocol`;

const header = (names: string, ports: string): string => `-- gamequery.lua: Wireshark dissectors for ${names}.
--
-- Generated by \`gamequery export wireshark\` from the layout declarations of @gamequery/codec. Do not edit:
-- regenerate. SPEC holds the field registry and every layout as data; the code after it is one generic
-- interpreter over those tables.
--
-- Install: copy into your personal Lua plugins folder (Help > About Wireshark > Folders), or run
--   tshark -X lua_script:gamequery.lua -r capture.pcap
-- Ports (Decode As): ${ports}; heuristics find the
-- protocols on any other UDP port (Minecraft replies through the request they answer).
-- Preferences per protocol: text encoding of strings, claiming every datagram on the ports, and where a protocol
-- carries secrets (SA:MP's RCON passwords) show_secrets, default off: they are then masked in the tree and the Info
-- column, in a request and in the replies that echo them; the packet bytes pane shows them all the same.
-- Expert items: <proto>.malformed where decoding stops, and one per declared warning code (<proto>.expert.short_list,
-- .flag_byte, .trailing_bytes; mcquery.expert.request_not_seen), group and severity from the codec's tables (SPEC.experts).
-- Written against the Wireshark 4.x Lua API; checked with tshark 4.0 (Lua 5.2) by the gamequery tests.
`;

/**
 * The codec's own single-byte code pages for the Lua side (bytes 0x80–0xFF as UTF-8), so
 * the plugin shows the same text as the codec; UTF-8 is left to Wireshark.
 */
function decoders(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const charset of charsets) {
    if (charset === 'utf8') continue;
    const codec = textCodec(charset);
    for (let b = 0; b < 0x80; b++) {
      if (codec.decode(Uint8Array.of(b)) !== String.fromCharCode(b)) throw new Error(`${charset}: byte ${b} is not ASCII`);
    }
    out[charset] = Array.from({ length: 128 }, (_, i) => codec.decode(Uint8Array.of(0x80 + i)));
  }
  return out;
}

/**
 * The Wireshark Lua plugin for the layouts of `selection` (default: every built-in one; any
 * made by `defineLayout`, yours included): one `Proto` per protocol they name, holding those
 * layouts and their fields. Its name in Wireshark is the protocol's (`acme`), its title its
 * declaration's, and its short title (the Protocol and Info columns) the layouts' `protocolName`.
 */
export function exportWireshark(selection: readonly AnyLayout[] = layouts, options: WiresharkOptions = {}): string {
  const byProtocol = new Map<string, AnyLayout[]>();
  for (const l of selection) {
    const mine = byProtocol.get(l.protocol);
    if (mine) mine.push(l);
    else byProtocol.set(l.protocol, [l]);
  }
  const registry = buildRegistry(selection);
  const declared = (p: string): ProtocolDeclaration | undefined => declarationOf(p, options.protocols);
  const portsOf = (p: string): readonly number[] => options.ports?.[p] ?? declared(p)?.ports ?? [];
  const protocols = [...byProtocol].map(([p, mine]) => luaProtocol(p, mine, registry, portsOf(p), declared(p)));
  // Each expert item once (group, severity, summary); a protocol lists the codes it registers.
  const experts = new Map([...byProtocol.keys()].flatMap((p) => wiresharkExperts(declared(p)).map((e) => [e.code, e] as const)));
  const spec = { charsets, decoders: decoders(), mask: MASK, experts: [...experts.values()], protocols };
  const names = [...byProtocol].map(([p, mine]) => titleIn(declared(p), mine[0]!.protocolName));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names.join('');
  const ports = [...byProtocol.keys()].map((p) => `${p} ${portsOf(p).join(', ') || 'none'}`).join('; ');
  return `${header(list, ports)}\nlocal SPEC = ${toLua(spec)}\n\n${luaRuntime}`;
}
