/**
 * Expert items: every kind of warning declared once, in a table — its code, group, severity
 * and summary — as Wireshark declares its expert items (`ei_register_info`). A warning
 * carries its code; renderers read group and severity from the table; a program decides on
 * the code, never on the words. The generic kinds (any layout can meet them) are declared
 * here; a protocol declares its own beside its layouts (its declaration's `experts`), the
 * pairing layer its outcomes (pairing/expert.ts).
 */

/**
 * Something odd that did not stop decoding (a short list, trailing bytes): the code of its
 * declared kind ({@link expertInfo} gives group and severity), where, and its words.
 */
export interface DecodeWarning {
  /** The declared kind: decide on this, not on `message`, whose words may change. */
  readonly code: string;
  readonly field: string;
  readonly offset: number;
  readonly message: string;
}

/** Wireshark's expert groups, as tshark names them in `[Expert Info (Severity/Group): …]`. */
export type ExpertGroup = 'Malformed' | 'Sequence' | 'Protocol';

/** Wireshark's expert severities, as tshark names them. */
export type ExpertSeverity = 'Note' | 'Warning' | 'Error';

/** One declared kind of warning. */
export interface ExpertInfo<C extends string = string> {
  /** Stable, for programs: `short-list`. Unique across every table. */
  readonly code: C;
  readonly group: ExpertGroup;
  readonly severity: ExpertSeverity;
  /** The message, with `{name}` placeholders that {@link warning} fills. */
  readonly summary: string;
}

const declared = new Map<string, ExpertInfo>();

/**
 * Declares a table of expert items (once, at module load) and returns it, items and all frozen. Throws
 * if a code is declared twice with different meaning: a code names one kind everywhere.
 */
export function declareExperts<const T extends readonly ExpertInfo[]>(table: T): T {
  for (const e of table) {
    const had = declared.get(e.code);
    if (had && (had.group !== e.group || had.severity !== e.severity || had.summary !== e.summary)) {
      throw new Error(`expert item ${JSON.stringify(e.code)} is declared twice`);
    }
    if (!had) declared.set(e.code, Object.freeze(e));
  }
  return Object.freeze(table);
}

/** The declared expert item of `code`, or undefined for a code no table declares. */
export const expertInfo = (code: string): ExpertInfo | undefined => declared.get(code);

/** Every declared expert item, in declaration order. */
export const expertInfos = (): readonly ExpertInfo[] => [...declared.values()];

/** `summary` with each `{name}` replaced by `values[name]`. */
const fill = (summary: string, values: Readonly<Record<string, string | number>>): string =>
  summary.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** A warning of a declared kind at `field`/`offset`, its message the kind's summary filled from `values` (and `field`). */
export function warning(
  info: ExpertInfo,
  field: string,
  offset: number,
  values: Readonly<Record<string, string | number>> = {},
): DecodeWarning {
  return { code: info.code, field, offset, message: fill(info.summary, { field, ...values }) };
}

/** A flag byte other than 0 or 1 (decoded as true). */
export const FLAG_BYTE: ExpertInfo<'flag-byte'> = {
  code: 'flag-byte',
  group: 'Malformed',
  severity: 'Warning',
  summary: '{field}: flag byte is {value}, expected 0 or 1',
};

/** A counted list that the message ends before its count (`tolerateShort`): the client takes such a reply as cut. */
export const SHORT_LIST: ExpertInfo<'short-list'> = {
  code: 'short-list',
  group: 'Malformed',
  severity: 'Warning',
  summary: '{field}: {declared} entries declared, {present} present before the end of the message',
};

/** Bytes after the last field of a message. */
export const TRAILING_BYTES: ExpertInfo<'trailing-bytes'> = {
  code: 'trailing-bytes',
  group: 'Malformed',
  severity: 'Warning',
  summary: '{count} bytes after the end of the message at offset {offset}',
};

/** The warnings any layout can meet: declared by the grammar, made by the decoders and emitters. */
export const grammarExperts: readonly ExpertInfo[] = declareExperts([FLAG_BYTE, SHORT_LIST, TRAILING_BYTES]);

/**
 * The expert items a protocol may raise: the grammar's generic kinds, then the protocol's own
 * (`ProtocolDeclaration.experts`). What the Wireshark plugin registers and the display filter names.
 */
export const protocolExperts = (declared: { readonly experts?: readonly ExpertInfo[] } | undefined): readonly ExpertInfo[] => [
  ...grammarExperts,
  ...(declared?.experts ?? []),
];

/** An expert item's abbreviation in `protocol`: `samp.expert.short_list` (a code's `-` as `_`, as abbreviations spell it). */
export const expertAbbrev = (protocol: string, code: string): string => `${protocol}.expert.${code.replaceAll('-', '_')}`;
