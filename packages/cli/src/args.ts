/**
 * Arguments every command reads the same way: protocol names (one set, with aliases), ports,
 * field abbreviations; a typo is a usage error (exit 2) that names the argument and the
 * nearest valid names, never empty output. And the escaping of what a terminal is shown.
 */
import { InvalidArgumentError, Option } from 'commander';
import { builtInProtocols, type Protocol } from '@gamequery/codec';
import { escapeControls } from '@gamequery/codec/internal';
import { editDistance, filterFields } from '@gamequery/dissect';

/** The exit codes, the same in every command (docs/cli.md, `gamequery --help`). */
export const EXIT = {
  /** All good. */
  ok: 0,
  /** The input is damaged (a hex dump's unreadable bytes, a reply that could not be read): what was intact was still printed, the error went to stderr. */
  damaged: 1,
  /** A usage error, or input that cannot be read at all. */
  usage: 2,
  /**
   * A damaged capture file or stream (cut short, a bad block, damaged gzip): its intact packets were
   * still printed, the error went to stderr, and the code is tshark's for a bad file.
   */
  badCapture: 2,
  /** `query`, `rcon`, `ping`: no server answered. */
  noAnswer: 3,
} as const;

/** Each protocol's one name, as the help shows them (samp, vcmp, mcquery). */
export const PROTOCOL_NAMES: readonly Protocol[] = builtInProtocols.map((p) => p.name);

/** Every accepted name, to the protocol the libraries call it: each declaration's name and aliases. */
const PROTOCOL_ALIASES: Record<string, Protocol> = Object.fromEntries(
  builtInProtocols.flatMap((p) => [p.name, ...p.aliases].map((alias) => [alias, p.name])),
);

/** The declaration of a built-in protocol. */
export const declarationOf = (p: Protocol): (typeof builtInProtocols)[number] => builtInProtocols.find((d) => d.name === p)!;

/** `a, b, c`, or with `last` `a, b or c`. */
export const listed = (names: readonly string[], last?: 'or' | 'and'): string =>
  last && names.length > 1 ? `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}` : names.join(', ');

/** `samp, vcmp, mcquery (also minecraft, mc, gs4)`: the names and the aliases accepted, from the declarations. */
export const PROTOCOL_LIST: string = listed(
  builtInProtocols.map((p) => (p.aliases.length ? `${p.name} (also ${p.aliases.join(', ')})` : p.name)),
);

/**
 * `samp (SA:MP Query Protocol), …, mcquery (Minecraft Query Protocol (GameSpy4); also minecraft, mc, gs4)`:
 * each of `protocols` (default: every one) with its title and aliases, from the declarations.
 */
export const protocolHelp = (protocols: readonly Protocol[] = PROTOCOL_NAMES, last?: 'or' | 'and'): string =>
  listed(
    protocols
      .map(declarationOf)
      .map((p) => `${p.name} (${[p.title, ...(p.aliases.length ? [`also ${p.aliases.join(', ')}`] : [])].join('; ')})`),
    last,
  );

/** {@link protocolHelp} of every protocol. */
export const PROTOCOL_HELP: string = protocolHelp();

/** `SA:MP, VC:MP and Minecraft query`: the short titles of `protocols` (default: every one), from their declarations. */
export const shortTitles = (protocols: readonly Protocol[] = PROTOCOL_NAMES, last: 'or' | 'and' = 'and'): string =>
  listed(
    protocols.map((p) => declarationOf(p).shortTitle),
    last,
  );

/** Up to `count` of `names` nearest to `word` (those sharing its prefix first), for "did you mean". */
export function nearest(word: string, names: readonly string[], count = 3): string[] {
  const scored = names.map((name) => {
    const shared = name.startsWith(word) || word.startsWith(name) ? 0 : 1;
    return { name, score: editDistance(word, name) + shared * 2 };
  });
  const best = scored.sort((x, y) => x.score - y.score || x.name.localeCompare(y.name)).slice(0, count);
  // Suggest only names reasonably close: within half the word's length, or sharing a prefix.
  return best.filter((s) => s.score <= Math.max(3, Math.ceil(word.length / 2))).map((s) => s.name);
}

const suggest = (word: string, names: readonly string[]): string => {
  const near = nearest(word, names);
  return near.length ? ` (did you mean ${near.join(', ')}?)` : '';
};

/** A protocol name or alias, to the libraries' name; commander turns the error into a usage error. */
export function parseProtocol(value: string): Protocol {
  const p = PROTOCOL_ALIASES[value.toLowerCase()];
  if (p === undefined)
    throw new InvalidArgumentError(
      `unknown protocol '${escapeControls(value)}': use ${PROTOCOL_NAMES.join(', ')}${suggest(value.toLowerCase(), Object.keys(PROTOCOL_ALIASES))}`,
    );
  return p;
}

/** A protocol that must be one of `allowed`, e.g. `ping` takes no mcquery. */
export const protocolAmong =
  <P extends Protocol>(allowed: readonly P[]) =>
  (value: string): P => {
    const p = parseProtocol(value);
    if (!(allowed as readonly Protocol[]).includes(p))
      throw new InvalidArgumentError(`'${value}' has no such request: this command takes ${allowed.join(', ')}`);
    return p as P;
  };

/** A whole number in `min..max`, written in decimal digits. */
export const integer =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number in ${min}..${max}`);
    return n;
  };

/** A UDP port, 1–65535, for repeatable options. */
export const collectPort = (value: string, previous: number[]): number[] => {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new InvalidArgumentError(`'${escapeControls(value)}' is not a UDP port: expected a whole number in 1..65535`);
  }
  return [...previous, n];
};

/** Fields `-e` may name: every name a display filter takes (the frame, IP and UDP fields, every registered abbreviation, the generated ones). */
export const knownFields = (): string[] => [...filterFields().keys()];

/** `-e` abbreviations, each checked; an unknown one is a usage error naming the nearest fields. */
export const collectField = (value: string, previous: string[]): string[] => {
  const known = knownFields();
  if (!known.includes(value)) {
    throw new InvalidArgumentError(`unknown field '${escapeControls(value)}'${suggest(value, known)}; gamequery fields lists them all`);
  }
  return [...previous, value];
};

/**
 * `-F, --format text|json`, which every command that prints JSON takes, as `dissect` and `stats`
 * do (theirs has more formats); `query`, `ping` and `rcon` keep their `--json` beside it.
 */
export function formatOption(defaultText: boolean): Option {
  const o = new Option('-F, --format <format>', defaultText ? 'output format' : 'output format (json: as --json)').choices([
    'text',
    'json',
  ]);
  return defaultText ? o.default('text') : o;
}

/** Whether a command that has `--json` prints JSON: `--json`, or `-F json`; with `-F text` too, a usage error. */
export function printsJson(opts: { readonly json?: boolean; readonly format?: string }): boolean {
  if (opts.json && opts.format === 'text') throw new Error('--json and -F text ask for two formats: give one');
  return !!opts.json || opts.format === 'json';
}
