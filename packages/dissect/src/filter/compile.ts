/**
 * Display filters compiled once to a predicate over packet records (`-Y`). Names are
 * resolved, literals converted to their field's type and regular expressions built when
 * the filter is compiled; a record is then only tested.
 *
 * Semantics follow Wireshark 4 where they meet: a test of a field that occurs several
 * times is true when any occurrence passes (`==`, `<`, `contains`, …), except `!=`,
 * true when the field occurs and no occurrence is equal (`~=` is "any not equal"); an
 * absent field makes every comparison false; `matches` ignores case unless the pattern
 * starts with `(?-i)`.
 */
import type { ProtocolDeclaration } from '@gamequery/codec';
import type { Timestamp } from '../capture/timestamp.ts';
import type { DissectedRecord } from '../frame-record.ts';
import { ipv4Number, ipv6Number } from './addresses.ts';
import { nearestFields } from './suggest.ts';
import { filterFields, type FilterContext, type FilterField, type FilterType, type FilterValue } from './fields.ts';
import { FilterError, parseFilter, type Expr, type Operand, type Relation } from './parse.ts';

/** Options of {@link compileFilter}. */
export interface FilterOptions {
  /** Compare RCON passwords in clear (else a secret compares as its mask, as it is shown). */
  readonly showSecrets?: boolean;
  /**
   * The protocols whose fields and names the filter may name: the dissector's `protocols`
   * (default: the built-in ones).
   */
  readonly protocols?: readonly ProtocolDeclaration[];
}

/** A compiled display filter. */
export interface DisplayFilter {
  readonly text: string;
  /** The field and protocol names it reads. */
  readonly fields: readonly string[];
  /** Whether it reads fields of the annotated tree (then a record's tree is built to test it). */
  readonly readsTree: boolean;
  /**
   * The layouts (ids) a packet must be read as for the filter to pass it, where it tests codec
   * fields so that one must be present (`samp.info.players > 50`: the layouts that declare
   * `samp.info.players`); undefined where any record may pass (a negation, a frame or IP field).
   * A frame read as another layout is not made into a record to be tested.
   */
  readonly layouts: ReadonlySet<string> | undefined;
  /**
   * Whether it reads only fields of the frame's layers (`ip.src == 10.0.0.1`, `udp.port ==
   * 7777`: filter/fields.ts `layer`): a frame record of a datagram passes exactly where its query
   * packet does, and a frame it does not pass is not made into a query packet to be tested.
   */
  readonly layers?: boolean;
  /** Whether `p` passes. `start`: the capture's first frame's time, for `frame.time_relative`. */
  matches(p: DissectedRecord, start?: Timestamp | null): boolean;
}

type Test = (p: DissectedRecord, c: FilterContext) => boolean;
type Values = (p: DissectedRecord, c: FilterContext) => readonly FilterValue[];
/** A literal converted for a field's type: a value, or (addresses) a network to be inside of. */
type Constant = { readonly value: FilterValue } | { readonly network: bigint; readonly bits: number; readonly width: number };

/** Compiles a display filter; throws {@link FilterError} (with the position and the nearest names) when it cannot. */
export function compileFilter(text: string, options: FilterOptions = {}): DisplayFilter {
  const expr = parseFilter(text);
  const fields = new Set<string>();
  let readsTree = false;
  const catalog = filterFields(options.protocols);

  const fieldOf = (o: Operand): FilterField | undefined => (o.kind === 'word' ? catalog.get(o.text) : undefined);
  const needField = (o: Operand): FilterField => {
    const f = fieldOf(o);
    if (f) {
      fields.add(f.name);
      if (f.fromTree) readsTree = true;
      return f;
    }
    if (o.kind !== 'word')
      throw new FilterError(
        `a ${o.kind === 'string' ? 'string' : 'character'} constant cannot be tested on its own: compare a field with it`,
        text,
        o.at,
        o.end - o.at,
      );
    const near = nearestFields(o.text, options.protocols);
    throw new FilterError(
      `"${o.text}" is neither a field nor a protocol name${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`,
      text,
      o.at,
      o.end - o.at,
      near,
    );
  };
  const values = (f: FilterField): Values => f.values;

  /**
   * A number compared with a whole-number field: whole, and within its bits, or an error as
   * tshark gives one (`udp.port == 70000` passes nothing: a typo, said so). Below zero an
   * unsigned field is left alone, as tshark leaves it.
   */
  const fits = (f: FilterField, o: Operand, value: number | bigint): Constant => {
    const int = f.integer;
    if (!int) return { value };
    const shown = text.slice(o.at, o.end);
    if (typeof value === 'number' && !Number.isInteger(value))
      throw new FilterError(`${f.name} is a whole number; ${shown} is not one`, text, o.at, o.end - o.at);
    const max = (1n << BigInt(int.signed ? int.bits - 1 : int.bits)) - 1n;
    const min = int.signed ? -max - 1n : undefined;
    const v = BigInt(value);
    if (v > max) throw new FilterError(`${shown} is too big for ${f.name}: at most ${max}`, text, o.at, o.end - o.at);
    if (min !== undefined && v < min)
      throw new FilterError(`${shown} is too small for ${f.name}: at least ${min}`, text, o.at, o.end - o.at);
    return { value };
  };

  const constant = (f: FilterField, o: Operand): Constant => {
    const bad = (what: string): FilterError =>
      new FilterError(`${f.name} is ${what}; ${text.slice(o.at, o.end)} is not one`, text, o.at, o.end - o.at);
    const word = o.kind === 'word' ? o.text : undefined;
    switch (f.type) {
      case 'number': {
        if (o.kind === 'char') return fits(f, o, o.text.codePointAt(0)!);
        if (word !== undefined && /^-?(\d+(\.\d*)?|\.\d+|0x[0-9a-f]+)$/i.test(word)) {
          const n = word.toLowerCase().includes('0x') ? parseInt(word, 16) * (word.startsWith('-') ? -1 : 1) : Number(word);
          // An integer past 2^53 as a bigint, exactly (a 64-bit field's value: a Steam ID).
          return fits(
            f,
            o,
            Number.isSafeInteger(n) || !/^-?(\d+|0x[0-9a-f]+)$/i.test(word)
              ? n
              : BigInt(word.replace(/^-/, '')) * (word.startsWith('-') ? -1n : 1n),
          );
        }
        // A name of its values (tshark's value strings), bare or quoted.
        const named = f.names?.get(o.text.toLowerCase());
        if (named !== undefined) return { value: named };
        if (f.names) throw bad(`a number or one of its names (${[...f.names.keys()].join(', ')})`);
        throw bad("a number (compare it with 42, 0x2a, 1.5 or a character such as 'i')");
      }
      case 'bool': {
        const w = word?.toLowerCase();
        if (w === 'true' || w === '1') return { value: true };
        if (w === 'false' || w === '0') return { value: false };
        throw bad('a boolean (true, false, 1 or 0)');
      }
      case 'ipv4':
      case 'ipv6': {
        const [addr, prefix, extra] = (word ?? '').split('/');
        const v6 = f.type === 'ipv6';
        const n = v6 ? ipv6Number(addr!) : ipv4Number(addr!);
        const width = v6 ? 128 : 32;
        const bits = prefix === undefined ? width : /^\d+$/.test(prefix) ? Number(prefix) : -1;
        if (n === undefined || extra !== undefined || bits < 0 || bits > width)
          throw bad(`an ${v6 ? 'IPv6' : 'IPv4'} address (optionally with a /prefix length)`);
        if (bits === width) return { value: n };
        const shift = BigInt(width - bits);
        return { network: (BigInt(n) >> shift) << shift, bits, width };
      }
      case 'string':
        return { value: o.text };
      case 'bytes':
      case 'protocol': {
        if (word !== undefined && /^[0-9a-f]{2}([:.-][0-9a-f]{2})*$/i.test(word))
          return { value: Uint8Array.from(word.split(/[:.-]/), (h) => parseInt(h, 16)) };
        if (o.kind !== 'word') return { value: new TextEncoder().encode(o.text) };
        throw bad('a byte string (compare it with "text" or hex bytes such as 53:41:4d:50)');
      }
      case 'none':
        throw new FilterError(`${f.name} has no value to compare: test whether it is there (${f.name}) instead`, text, o.at, o.end - o.at);
    }
  };

  const compare = (e: Extract<Expr, { kind: 'compare' }>): Test => {
    let { left, right, op } = e;
    if (!fieldOf(left) && fieldOf(right)) [left, right, op] = [right, left, mirror[op]];
    const f = needField(left);
    const get = values(f);
    ordered(f, op, left);
    const g = fieldOf(right);
    if (g) {
      needField(right);
      if (kindOf(g.type) !== kindOf(f.type))
        throw new FilterError(
          `${f.name} and ${g.name} hold different kinds of values and cannot be compared`,
          text,
          left.at,
          right.end - left.at,
        );
      const other = values(g);
      return (p, c) => relate(op, get(p, c), other(p, c));
    }
    const k = constant(f, right);
    if ('network' in k) {
      if (op !== '==' && op !== '!=' && op !== '~=')
        throw new FilterError(`a network (${right.text}) can only be tested with ==, != or ~=`, text, right.at, right.end - right.at);
      return quantified(op, get, (v) => inNetwork(v, k));
    }
    const want = [k.value];
    return (p, c) => relate(op, get(p, c), want);
  };

  const ordered = (f: FilterField, op: Relation, at: Operand): void => {
    if ((op === '<' || op === '<=' || op === '>' || op === '>=') && (f.type === 'bool' || f.type === 'none')) {
      throw new FilterError(`${f.name} has no order: compare it with == or !=`, text, at.at, at.end - at.at);
    }
  };

  const build = (e: Expr): Test => {
    switch (e.kind) {
      case 'and': {
        const [a, b] = [build(e.left), build(e.right)];
        return (p, c) => a(p, c) && b(p, c);
      }
      case 'or': {
        const [a, b] = [build(e.left), build(e.right)];
        return (p, c) => a(p, c) || b(p, c);
      }
      case 'not': {
        const a = build(e.expr);
        return (p, c) => !a(p, c);
      }
      case 'test': {
        const get = values(needField(e.operand));
        return (p, c) => get(p, c).length > 0;
      }
      case 'compare':
        return compare(e);
      case 'contains': {
        const f = needField(e.left);
        if (!['string', 'bytes', 'protocol'].includes(f.type))
          throw new FilterError(`${f.name} is not text or bytes: "contains" cannot test it`, text, e.left.at, e.left.end - e.left.at);
        const get = values(f);
        const k = constant(f, e.right) as { value: string | Uint8Array };
        const needle = k.value;
        return quantified('==', get, (v) =>
          typeof v === 'string' ? v.includes(needle as string) : v instanceof Uint8Array && indexOf(v, needle as Uint8Array) >= 0,
        );
      }
      case 'matches': {
        const f = needField(e.left);
        if (!['string', 'bytes', 'protocol'].includes(f.type))
          throw new FilterError(`${f.name} is not text or bytes: "matches" cannot test it`, text, e.left.at, e.left.end - e.left.at);
        if (e.right.kind !== 'string')
          throw new FilterError('"matches" takes a regular expression in double quotes', text, e.right.at, e.right.end - e.right.at);
        const re = regex(e.right);
        const get = values(f);
        return quantified('==', get, (v) =>
          typeof v === 'string' ? re.test(v) : v instanceof Uint8Array && re.test(String.fromCharCode(...v)),
        );
      }
      case 'in': {
        const f = needField(e.left);
        const get = values(f);
        const members = e.items.map(([low, high]) => {
          const lo = constant(f, low);
          if (!high) return (v: FilterValue): boolean => ('network' in lo ? v !== null && inNetwork(v, lo) : equal(v, lo.value));
          ordered(f, '<', low);
          const hi = constant(f, high);
          if ('network' in lo || 'network' in hi)
            throw new FilterError('a range of networks means nothing: give addresses', text, low.at, high.end - low.at);
          return (v: FilterValue): boolean => order(v, lo.value) >= 0 && order(v, hi.value) <= 0;
        });
        return quantified('==', get, (v) => members.some((m) => m(v)));
      }
    }
  };

  const regex = (o: Operand): RegExp => {
    const sensitive = o.text.startsWith('(?-i)');
    const source = o.text.replace(/^\(\?-?i\)/, '');
    try {
      return new RegExp(source, sensitive ? 'u' : 'iu');
    } catch (err) {
      throw new FilterError(`not a regular expression: ${(err as Error).message}`, text, o.at, o.end - o.at);
    }
  };

  const test = build(expr);
  // Every test of a field is false where the field is absent: only the layouts declaring it can pass.
  const declaring = (o: Operand): ReadonlySet<string> | undefined => fieldOf(o)?.layouts;
  const both = (a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined =>
    a === undefined ? b : b === undefined ? a : new Set([...a].filter((l) => b.has(l)));
  const passable = (e: Expr): ReadonlySet<string> | undefined => {
    switch (e.kind) {
      case 'and':
        return both(passable(e.left), passable(e.right));
      case 'or': {
        const [a, b] = [passable(e.left), passable(e.right)];
        return a === undefined || b === undefined ? undefined : new Set([...a, ...b]);
      }
      case 'not':
        return undefined;
      case 'test':
        return declaring(e.operand);
      case 'compare':
        return both(declaring(e.left), declaring(e.right));
      default:
        return declaring(e.left);
    }
  };
  const masked: FilterContext = { start: undefined, showSecrets: !!options.showSecrets };
  let context = masked;
  return {
    text,
    fields: [...fields],
    readsTree,
    layouts: passable(expr),
    layers: fields.size > 0 && [...fields].every((name) => catalog.get(name)!.layer === true),
    matches(p, start) {
      if (start !== context.start) context = { start, showSecrets: masked.showSecrets };
      return test(p, context);
    },
  };
}

const mirror: Record<Relation, Relation> = { '==': '==', '!=': '!=', '~=': '~=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** What kinds of values may meet in a comparison. */
const kindOf = (t: FilterType): string => (t === 'protocol' ? 'bytes' : t);

/** Any occurrence passes (`!=`: some occur and none is equal). */
function quantified(op: Relation, get: Values, pass: (v: FilterValue) => boolean): Test {
  if (op === '!=') {
    return (p, c) => {
      const vs = get(p, c);
      return vs.length > 0 && !vs.some(pass);
    };
  }
  if (op === '~=') return (p, c) => get(p, c).some((v) => !pass(v));
  return (p, c) => get(p, c).some(pass);
}

function relate(op: Relation, as: readonly FilterValue[], bs: readonly FilterValue[]): boolean {
  if (op === '!=') return as.length > 0 && bs.length > 0 && !as.some((a) => bs.some((b) => equal(a, b)));
  for (const a of as) {
    for (const b of bs) {
      if (op === '==' ? equal(a, b) : op === '~=' ? !equal(a, b) : holds(op, order(a, b))) return true;
    }
  }
  return false;
}

const holds = (op: Relation, d: number): boolean => (op === '<' ? d < 0 : op === '<=' ? d <= 0 : op === '>' ? d > 0 : d >= 0);

/** A number or a bigint (a 64-bit integer): the two compare by value, exactly. */
const numeric = (v: FilterValue): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

function equal(a: FilterValue, b: FilterValue): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && indexOf(a, b) === 0;
  return a === b || (numeric(a) && numeric(b) && a == b); // a bigint equals the number of its value only loosely
}

/** Negative, 0 or positive; NaN for values without an order between them (absent, or of other kinds). */
function order(a: FilterValue, b: FilterValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (numeric(a) && numeric(b)) return a < b ? -1 : a > b ? 1 : a == b ? 0 : Number.NaN;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  return Number.NaN;
}

function inNetwork(v: FilterValue, k: { readonly network: bigint; readonly bits: number; readonly width: number }): boolean {
  if (typeof v !== 'number' && typeof v !== 'bigint') return false;
  const shift = BigInt(k.width - k.bits);
  return (BigInt(v) >> shift) << shift === k.network;
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

export { FilterError };
