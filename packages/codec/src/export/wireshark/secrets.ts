/**
 * Secrets (RCON passwords) for the Wireshark plugin: what the layout tables tell the Lua
 * runtime, which masks them as the dissector does (the request's whole secrets, the part of a
 * command that sets one, and every echo of either in the replies linked to the request).
 *
 * A declaration's `redact` RegExp becomes Lua patterns: Lua has no
 * regular expressions, only patterns (no alternation, no groups of several items), so a
 * RegExp of a small subset is translated into one pattern per alternative (tried in order: for an anchored RegExp,
 * as SETS_PASSWORD is, the same match), and anything
 * outside that subset is refused at export time rather than matched differently at run time.
 *
 * The subset: `^` first and `$` last; literal characters; `.` (only with the `s` flag, where
 * it matches line ends as Lua's `.` does); `\s \S \d \D \w \W`; `*`, `+`, `?` after one of
 * those; non-capturing groups `(?:a|b)` of plain alternatives; exactly one capturing group
 * (the secret), which in the pattern becomes `()(...)()`, so a match returns where the secret
 * starts, the secret, and where it ends. The `i` flag makes each letter a class (`[Rr]`).
 * `\s` is ASCII white space in Lua (JavaScript's also takes Unicode spaces such as U+00A0).
 */
import type { Field } from '../../grammar/fields.ts';
import { secretFields } from '../../grammar/kinds/index.ts';
import type { AnyLayout } from '../../grammar/layout.ts';

const CLASSES: Readonly<Record<string, string>> = { s: '%s', S: '%S', d: '%d', D: '%D', w: '[%w_]', W: '[^%w_]' };
const MAGIC = new Set('^$()%.[]*+-?');
const isQuantifier = (c: string | undefined): boolean => c === '*' || c === '+' || c === '?';

/** Each alternative of `re` as a Lua pattern whose captures are start, secret, end. */
export function luaPatterns(re: RegExp): string[] {
  const src = re.source;
  const refuse = (why: string): never => {
    throw new Error(`no Lua pattern for ${String(re)}: ${why}`);
  };
  for (const flag of re.flags) if (!'isgy'.includes(flag)) refuse(`flag ${flag}`);
  const literal = (c: string): string => {
    if (re.flags.includes('i') && c.toLowerCase() !== c.toUpperCase()) return `[${c.toUpperCase()}${c.toLowerCase()}]`;
    return MAGIC.has(c) ? `%${c}` : c;
  };
  // Each alternative built so far; every item is appended to all of them.
  let out = [''];
  let captures = 0;
  let inCapture = false;
  const append = (piece: string): void => {
    out = out.map((p) => p + piece);
  };
  let i = 0;
  const quantified = (item: string): string => {
    const q = src[i];
    if (!isQuantifier(q)) return item;
    i++;
    return item + q!;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '^') {
      if (i !== 0) refuse('^ not at the start');
      append('^');
      i++;
    } else if (c === '$') {
      if (i !== src.length - 1) refuse('$ not at the end');
      append('$');
      i++;
    } else if (c === '\\') {
      const e = src[i + 1] ?? refuse('a lone backslash');
      i += 2;
      append(quantified(CLASSES[e] ?? (/[A-Za-z0-9]/.test(e) ? refuse(`\\${e}`) : literal(e))));
    } else if (c === '.') {
      if (!re.flags.includes('s')) refuse('. without the s flag');
      i++;
      append(quantified('.'));
    } else if (src.startsWith('(?:', i)) {
      const end = src.indexOf(')', i);
      const body = src.slice(i + 3, end);
      if (end < 0 || !/^[A-Za-z0-9_ ]+(\|[A-Za-z0-9_ ]+)*$/.test(body)) refuse('a group that is not plain alternatives');
      i = end + 1;
      if (isQuantifier(src[i])) refuse('a quantified group');
      const alternatives = body.split('|').map((a) => [...a].map(literal).join(''));
      out = out.flatMap((p) => alternatives.map((a) => p + a));
    } else if (c === '(') {
      if (src[i + 1] === '?' || inCapture || captures) refuse('more than one capturing group, or a lookaround');
      captures++;
      inCapture = true;
      i++;
      append('()(');
    } else if (c === ')') {
      if (!inCapture) refuse('an unbalanced )');
      inCapture = false;
      i++;
      if (isQuantifier(src[i])) refuse('a quantified group');
      append(')()');
    } else if ('[]{}|*+?'.includes(c)) {
      refuse(`${c} here`);
    } else {
      i++;
      append(quantified(literal(c)));
    }
  }
  if (captures !== 1 || inCapture) refuse('it needs exactly one capturing group');
  return out;
}

/** The secret keys of a string field's Lua table: `secret` (wholly secret), `redact` (its Lua patterns). */
export const luaSecret = (f: Field): { secret?: true; redact?: string[] } =>
  f.kind !== 'string' ? {} : { ...(f.secret ? { secret: true } : {}), ...(f.redact ? { redact: luaPatterns(f.redact) } : {}) };

/** Whether a layout declares a secret: the runtime then reads its secrets on the first pass. */
export const declaresSecrets = (layout: AnyLayout): boolean => secretFields(layout.fields).size > 0;
