/**
 * tshark's expert information (`-z expert[,error|,warn|,note|,chat|,comment][,FILTER]`): every
 * expert item of the packets shown, counted by severity, group, protocol and summary, in tshark
 * 4.0's layout (ui/cli/tap-expert.c, v4.0.17): a section per severity that has items, worst first,
 * each item with its count, in the order first seen.
 *
 * The items are a query message's: its warnings, with the severity and group their code declares
 * (codec `expertInfo`), and the malformed item where decoding stopped (Error/Malformed). tshark with
 * our Lua plugin raises the same items with the same words; it does not dissect a Minecraft reply
 * whose request it did not see, and so has no item for it. The layers' own items (tshark's UDP
 * "Bad length value") are not counted. Memory is one entry per distinct item.
 */
import { expertInfo } from '@gamequery/codec';
import { FrameRecord, type DissectedRecord } from '../frame-record.ts';

/** tshark's severities, worst first, as `-z expert,LEVEL` names them. */
export const EXPERT_LEVELS = ['error', 'warn', 'note', 'chat', 'comment'] as const;
/** A severity as `-z expert,LEVEL` names it: `error`, `warn`, `note`, `chat`, `comment`. */
export type ExpertLevel = (typeof EXPERT_LEVELS)[number];

/** The section titles tshark prints, by level. */
const SECTION: Record<ExpertLevel, string> = { error: 'Errors', warn: 'Warns', note: 'Notes', chat: 'Chats', comment: 'Comments' };

/** One expert item of a record: its severity and group (as tshark names them), its protocol's name, its words, and the warning code that raised it (none for the malformed item). */
export interface ExpertItemOf {
  readonly severity: string;
  readonly group: string;
  readonly protocol: string;
  readonly message: string;
  readonly code?: string;
}

const NO_ITEMS: readonly ExpertItemOf[] = Object.freeze([]);

/**
 * A record's expert items, in the order raised: each warning, with the severity and group its code
 * declares (codec `expertInfo`), then the malformed item where decoding stopped (Error/Malformed).
 * What `-z expert` counts and what the display filter's `_ws.expert` fields read. A frame without a
 * query message has none.
 */
export function expertItemsOf(p: DissectedRecord): readonly ExpertItemOf[] {
  if (p instanceof FrameRecord || (!p.warnings.length && !p.malformed)) return NO_ITEMS;
  const items: ExpertItemOf[] = p.warnings.map((w) => ({ ...declaredBy(w.code), protocol: p.protocol, message: w.message, code: w.code }));
  if (p.malformed) items.push({ severity: 'Error', group: 'Malformed', protocol: p.protocol, message: p.malformed.message });
  return items;
}

/** The severity and group a warning code declares (codec `expertInfo`); Warning/Malformed for a code no table declares (a layout made elsewhere). */
export function declaredBy(code: string): { readonly severity: string; readonly group: string } {
  const info = expertInfo(code);
  return { severity: info?.severity ?? 'Warning', group: info?.group ?? 'Malformed' };
}

type ItemWords = { readonly severity: string; readonly group: string; readonly message: string };

/** An item as tshark's `_ws.expert` field writes it: `Expert Info (Warning/Malformed): …`. */
export const expertItemText = (i: ItemWords): string => `Expert Info (${i.severity}/${i.group}): ${i.message}`;

/** An item as Wireshark's tree writes it: `[Expert Info (Warning/Malformed): …]`. */
export const expertItemLine = (i: ItemWords): string => `[${expertItemText(i)}]`;

/** A level's severity as Wireshark names it (`warn` is `Warning`). */
export const SEVERITY_OF: Readonly<Record<ExpertLevel, string>> = {
  error: 'Error',
  warn: 'Warning',
  note: 'Note',
  chat: 'Chat',
  comment: 'Comment',
};

/** Our severities (codec `ExpertSeverity`) as levels: {@link SEVERITY_OF} the other way. */
const LEVEL_OF: Readonly<Record<string, ExpertLevel>> = Object.fromEntries(EXPERT_LEVELS.map((l) => [SEVERITY_OF[l], l]));

/** An item and how many times it was raised. */
export interface ExpertItem {
  readonly level: ExpertLevel;
  readonly group: string;
  /** tshark's short name of the protocol that raised it: `SAMP`, `MCQUERY`, `VCMP`. */
  readonly protocol: string;
  readonly summary: string;
  readonly count: number;
}

/** The items at `level` or worse that the filter's packets raised (empty: no filter), worst first, then in the order first seen. */
export interface ExpertReport {
  readonly level: ExpertLevel;
  readonly filter: string;
  readonly items: readonly ExpertItem[];
}

/** `expert`, `expert,warn`, `expert,error,FILTER`, `expert,FILTER` (tshark's syntax); undefined for another statistic. */
export function parseExpert(arg: string): { readonly level: ExpertLevel; readonly filter: string } | undefined {
  if (arg !== 'expert' && !arg.startsWith('expert,')) return undefined;
  const rest = arg.slice('expert,'.length);
  const comma = rest.indexOf(',');
  const first = comma < 0 ? rest : rest.slice(0, comma);
  if ((EXPERT_LEVELS as readonly string[]).includes(first))
    return { level: first as ExpertLevel, filter: comma < 0 ? '' : rest.slice(comma + 1) };
  return { level: 'comment', filter: arg === 'expert' ? '' : rest };
}

/** Counts the expert items of the records shown ({@link add}) and reports them ({@link report}; {@link expertLines} as tshark). */
export class ExpertStats {
  readonly #items = new Map<string, { level: ExpertLevel; group: string; protocol: string; summary: string; count: number }>();

  constructor(
    readonly level: ExpertLevel = 'comment',
    readonly filter = '',
  ) {}

  add(p: DissectedRecord): void {
    for (const i of expertItemsOf(p)) this.#count(LEVEL_OF[i.severity] ?? 'warn', i.group, i.protocol.toUpperCase(), i.message);
  }

  #count(level: ExpertLevel, group: string, protocol: string, summary: string): void {
    if (EXPERT_LEVELS.indexOf(level) > EXPERT_LEVELS.indexOf(this.level)) return;
    const key = `${level}\n${group}\n${protocol}\n${summary}`;
    const item = this.#items.get(key);
    if (item) item.count++;
    else this.#items.set(key, { level, group, protocol, summary, count: 1 });
  }

  report(): ExpertReport {
    const items = [...this.#items.values()].sort((a, b) => EXPERT_LEVELS.indexOf(a.level) - EXPERT_LEVELS.indexOf(b.level));
    return { level: this.level, filter: this.filter, items: items.map((i) => ({ ...i })) };
  }
}

/** The report as tshark prints it: per severity with items, a blank line, `Errors (N)`, a rule, the heading, an item a line. */
export function* expertLines(r: ExpertReport): Generator<string> {
  for (const level of EXPERT_LEVELS) {
    const items = r.items.filter((i) => i.level === level);
    if (!items.length) continue;
    yield '';
    yield `${SECTION[level]} (${items.reduce((n, i) => n + i.count, 0)})`;
    yield '=============';
    yield '   Frequency      Group           Protocol  Summary';
    for (const i of items) yield `${String(i.count).padStart(12)} ${i.group.padStart(10)} ${i.protocol.padStart(18)}  ${i.summary}`;
  }
}
