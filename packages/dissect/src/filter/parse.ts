/**
 * Display filters, the text: a subset of Wireshark's display-filter syntax, read into a
 * tree of tests. What the names mean and how values compare is compile.ts's.
 *
 *   expr    := or
 *   or      := and (('or' | '||') and)*
 *   and     := not (('and' | '&&') not)*
 *   not     := ('not' | '!') not | primary
 *   primary := '(' expr ')' | operand [relation]
 *   relation:= ('==' | '!=' | '~=' | '<' | '<=' | '>' | '>=' | 'eq' | 'ne' | 'any_ne' | 'lt' | 'le' | 'gt' | 'ge') operand
 *            | 'contains' operand | ('matches' | '~') operand | 'in' '{' item (','? item)* '}'
 *   item    := operand ['..' operand]
 *   operand := word | "string" | 'c'
 *
 * A word is a field or protocol name, a number, an address (IPv4, IPv6, with an optional
 * /prefix) or an unquoted string: which one is decided where its meaning is known.
 */

/** A filter that cannot be read or compiled: where (`position`, 0-based, `length` characters) and why. */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  constructor(
    message: string,
    readonly filter: string,
    readonly position: number,
    readonly length = 1,
    /** Known names nearest to an unknown one, best first. */
    readonly suggestions: readonly string[] = [],
  ) {
    super(message);
  }

  /** The filter with a caret line under the offending part, as tshark shows it. */
  get pointer(): string {
    return `    ${this.filter}\n    ${' '.repeat(this.position)}^${'~'.repeat(Math.max(0, this.length - 1))}`;
  }
}

export type Relation = '==' | '!=' | '~=' | '<' | '<=' | '>' | '>=';

export interface Operand {
  /** word: unquoted; string: "…"; char: '…' (its code). */
  readonly kind: 'word' | 'string' | 'char';
  readonly text: string;
  readonly at: number;
  readonly end: number;
}

export type Expr =
  | { readonly kind: 'and' | 'or'; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'not'; readonly expr: Expr }
  | { readonly kind: 'test'; readonly operand: Operand }
  | { readonly kind: 'compare'; readonly op: Relation; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'contains' | 'matches'; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'in'; readonly left: Operand; readonly items: readonly (readonly [Operand, Operand?])[] };

interface Token {
  readonly kind: 'word' | 'string' | 'char' | 'punct' | 'end';
  readonly text: string;
  readonly at: number;
  readonly end: number;
}

const PUNCT = ['==', '!=', '~=', '<=', '>=', '&&', '||', '..', '(', ')', '{', '}', ',', '<', '>', '!', '~'];
const WORD = /[A-Za-z0-9_.:/-]/;
const RELATIONS: Record<string, Relation> = {
  '==': '==',
  eq: '==',
  '!=': '!=',
  ne: '!=',
  '~=': '~=',
  any_ne: '~=',
  '<': '<',
  lt: '<',
  '<=': '<=',
  le: '<=',
  '>': '>',
  gt: '>',
  '>=': '>=',
  ge: '>=',
};

function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const [text, end] = quoted(filter, i);
      if (c === "'" && [...text].length !== 1)
        throw new FilterError(`a character constant holds one character, not ${JSON.stringify(text)}`, filter, i, end - i);
      tokens.push({ kind: c === '"' ? 'string' : 'char', text, at: i, end });
      i = end;
      continue;
    }
    const p = PUNCT.find((s) => filter.startsWith(s, i));
    if (p) {
      tokens.push({ kind: 'punct', text: p, at: i, end: i + p.length });
      i += p.length;
      continue;
    }
    if (WORD.test(c)) {
      let j = i;
      // A word ends where a range's '..' begins: `1..10` is three tokens.
      while (j < filter.length && WORD.test(filter[j]!) && !filter.startsWith('..', j)) j++;
      tokens.push({ kind: 'word', text: filter.slice(i, j), at: i, end: j });
      i = j;
      continue;
    }
    throw new FilterError(`"${c}" was unexpected in this context`, filter, i);
  }
  tokens.push({ kind: 'end', text: '', at: filter.length, end: filter.length });
  return tokens;
}

/** A quoted string from `start` (its quote): its text with escapes resolved, and where it ends. */
function quoted(filter: string, start: number): [string, number] {
  const q = filter[start]!;
  let out = '';
  let i = start + 1;
  while (i < filter.length) {
    const c = filter[i]!;
    if (c === q) return [out, i + 1];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = filter[i + 1];
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      '0': '\0',
      '\\': '\\',
      '"': '"',
      "'": "'",
      a: '\x07',
      b: '\b',
      f: '\f',
      v: '\v',
    };
    if (e !== undefined && e in simple) {
      out += simple[e];
      i += 2;
    } else if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(filter.slice(i + 2, i + 4))) {
      out += String.fromCharCode(parseInt(filter.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      throw new FilterError(`unknown escape \\${e ?? ''} in a string`, filter, i, 2);
    }
  }
  throw new FilterError('a string is not closed', filter, start, filter.length - start);
}

/** Reads a filter into its tree of tests; throws {@link FilterError} with the position of the first problem. */
export function parseFilter(filter: string): Expr {
  const tokens = tokenize(filter);
  let k = 0;
  const peek = (): Token => tokens[k]!;
  const isWord = (t: Token, ...words: string[]): boolean => t.kind === 'word' && words.includes(t.text.toLowerCase());
  const isPunct = (t: Token, ...texts: string[]): boolean => t.kind === 'punct' && texts.includes(t.text);
  const unexpected = (t: Token): FilterError =>
    t.kind === 'end'
      ? new FilterError('unexpected end of filter expression', filter, Math.max(0, filter.length - 1) + (filter.length ? 1 : 0))
      : new FilterError(`"${filter.slice(t.at, t.end)}" was unexpected in this context`, filter, t.at, t.end - t.at);

  const operand = (): Operand => {
    const t = peek();
    if (t.kind === 'word' || t.kind === 'string' || t.kind === 'char') {
      k++;
      return { kind: t.kind, text: t.text, at: t.at, end: t.end };
    }
    throw unexpected(t);
  };

  const or = (): Expr => {
    let left = and();
    while (isWord(peek(), 'or') || isPunct(peek(), '||')) {
      k++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): Expr => {
    let left = not();
    while (isWord(peek(), 'and') || isPunct(peek(), '&&')) {
      k++;
      left = { kind: 'and', left, right: not() };
    }
    return left;
  };
  const not = (): Expr => {
    if (isWord(peek(), 'not') || isPunct(peek(), '!')) {
      k++;
      return { kind: 'not', expr: not() };
    }
    return primary();
  };
  const primary = (): Expr => {
    const t = peek();
    if (isPunct(t, '(')) {
      k++;
      const e = or();
      if (!isPunct(peek(), ')'))
        throw isPunct(peek(), '(') || peek().kind === 'end'
          ? new FilterError('a parenthesis is not closed', filter, t.at)
          : unexpected(peek());
      k++;
      return e;
    }
    const left = operand();
    const r = peek();
    const relation = r.kind === 'punct' || r.kind === 'word' ? RELATIONS[r.kind === 'word' ? r.text.toLowerCase() : r.text] : undefined;
    if (relation) {
      k++;
      return { kind: 'compare', op: relation, left, right: operand() };
    }
    if (isWord(r, 'contains')) {
      k++;
      return { kind: 'contains', left, right: operand() };
    }
    if (isWord(r, 'matches') || isPunct(r, '~')) {
      k++;
      return { kind: 'matches', left, right: operand() };
    }
    if (isWord(r, 'in')) {
      k++;
      if (!isPunct(peek(), '{')) throw unexpected(peek());
      const open = peek();
      k++;
      const items: [Operand, Operand?][] = [];
      while (!isPunct(peek(), '}')) {
        if (peek().kind === 'end') throw new FilterError('a set is not closed', filter, open.at);
        const low = operand();
        if (isPunct(peek(), '..')) {
          k++;
          items.push([low, operand()]);
        } else {
          items.push([low]);
        }
        if (isPunct(peek(), ',')) k++;
      }
      k++;
      if (!items.length) throw new FilterError('a set needs at least one member', filter, open.at, peek().at - open.at);
      return { kind: 'in', left, items };
    }
    return { kind: 'test', operand: left };
  };

  if (peek().kind === 'end') throw new FilterError('the filter is empty', filter, 0);
  const e = or();
  if (peek().kind !== 'end') throw unexpected(peek());
  return e;
}
