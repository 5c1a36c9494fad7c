/**
 * `gamequery query samp|vcmp|mcquery HOST[:PORT]...`: query servers over UDP, all at
 * once through one client, and print a table (or JSON). Servers may also come one per
 * line from a file or stdin (`--file LIST`, `--file -`, or `-` among the servers).
 */
import { readFileSync } from 'node:fs';
import { Argument, Command, Option } from 'commander';
import { EXIT, PROTOCOL_HELP, PROTOCOL_NAMES, integer, parseProtocol, shortTitles, formatOption, printsJson } from '../args.ts';
import { builtInProtocols, charsetChoices, type Charset, type Protocol } from '@gamequery/codec';
import { escapeControls } from '@gamequery/codec/internal';
import {
  DeadlineError,
  QueryClient,
  QueryError,
  parseServer,
  type MinecraftQueryResult,
  type SampQueryResult,
  type ServerAddress,
  type VcmpQueryResult,
} from '@gamequery/codec/node';

type Kind = Protocol;
type Result = SampQueryResult | VcmpQueryResult | MinecraftQueryResult;

interface Opts {
  format?: 'text' | 'json';
  json?: boolean;
  timeout: number;
  retries: number;
  concurrency: number;
  deadline?: number;
  charset?: Charset;
  file?: string;
  basic?: boolean;
}

/** Each protocol's declared default port, by its name. */
const DEFAULT_PORT = Object.fromEntries(builtInProtocols.map((p) => [p.name, p.defaultPort])) as Record<Kind, number>;

export { integer };

/** Server text from a terminal-hostile world: line breaks become spaces, other controls (but tabs) escapes such as `\x1b`. */
export const printable = (text: string): string =>
  text
    .replace(/\r\n|[\r\n]/g, ' ')
    .split('\t')
    .map(escapeControls)
    .join('\t');

/** Lines of a server list: blank lines and `#` comments skipped, the first word of each line kept. */
export function serverList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/)[0] ?? '')
    .filter((l) => l !== '');
}

interface Entry {
  readonly text: string;
  readonly address?: ServerAddress;
  readonly problem?: string;
}

interface Row {
  readonly server: string;
  readonly result?: Result;
  readonly error?: { readonly type: string; readonly code?: string; readonly message: string };
}

/** What went wrong with a server, in a few words, by its error's class. */
const FAILURES: Record<string, string> = {
  NoReplyError: 'no reply',
  UnreachableError: 'port unreachable',
  ResolveError: 'name not found',
  TargetError: 'not a server address',
  DeadlineError: 'past the deadline',
  SendError: 'could not send',
  BadReplyError: 'unreadable reply',
  AbortedError: 'stopped',
  ClientClosedError: 'stopped',
  WrongPasswordError: 'wrong password',
};

const failure = (type: string): string => FAILURES[type] ?? type;

/** Up to this many servers, each gets a connected socket (port unreachable heard at once); more share one. */
const CONNECT_UP_TO = 16;

export function queryCommand(): Command {
  return new Command('query')
    .description(`query ${shortTitles(PROTOCOL_NAMES, 'or')} servers over UDP and print what they say`)
    .addArgument(new Argument('<protocol>', PROTOCOL_HELP).argParser(parseProtocol))
    .argument(
      '[servers...]',
      `HOST[:PORT], [IPv6]:PORT; "-" reads a list from stdin (default ports ${Object.values(DEFAULT_PORT).join(', ')})`,
    )
    .option('-f, --file <list>', 'read servers from a file, one per line ("-" for stdin; # starts a comment)')
    .option('--json', 'print JSON instead of a table')
    .addOption(formatOption(false))
    .option('--timeout <ms>', 'wait for each reply this long before sending again', integer(1, 600_000), 1000)
    .option('--retries <n>', 'send an unanswered request again this many times', integer(0, 100), 2)
    .option('--concurrency <n>', 'requests in flight at most, over all servers', integer(1, 100_000), 256)
    .option('--deadline <ms>', 'give up on whatever has not answered after this long (whole run)', integer(1, 86_400_000))
    .addOption(
      new Option(
        '--charset <name>',
        'charset of the strings; auto (the default) decides per string between UTF-8, windows-1251 and windows-1252 and lists each choice in --json (charsets)',
      ).choices([...charsetChoices]),
    )
    .option('--basic', 'mcquery: ask for the basic stat instead of the full one')
    .addHelpText(
      'after',
      `
Up to ${CONNECT_UP_TO} servers each get a connected socket: a closed port fails at once with
"port unreachable" (ICMP), exit 3. A longer list shares one socket and times out instead.

SA:MP: "flavor" is openmp, samp-0.3.7, samp (another SA-MP version) or unknown, with its
evidence (the rules version, allowed_clients, artwork, allow_DL as rule=value, and o=FORM
when \`o\` was answered); it chooses \`c\` (open.mp) or \`d\` and whether to ask \`o\`.

Examples:
  gamequery query samp 127.0.0.1:7777
  gamequery query mcquery [::1]:25565 --json
  gamequery query samp --file servers.txt --concurrency 500 --timeout 800`,
    )
    .action(async (kind: Kind, args: string[], opts: Opts) => {
      opts.json = printsJson(opts);
      const texts = [...args.filter((a) => a !== '-')];
      const stdin = args.includes('-') || opts.file === '-';
      // Appended one by one: push(...list) passes a list of a master server's size as arguments, past what a call takes.
      if (opts.file !== undefined && opts.file !== '-') for (const t of serverList(readFileSync(opts.file, 'utf8'))) texts.push(t);
      if (stdin) for (const t of serverList(readFileSync(0, 'utf8'))) texts.push(t);
      if (texts.length === 0) throw new Error('no servers given: name them, or pass --file LIST (or - for stdin)');
      const entries: Entry[] = texts.map((text) => {
        try {
          return { text, address: parseServer(text, DEFAULT_PORT[kind]) };
        } catch (e) {
          return { text, problem: e instanceof Error ? e.message : String(e) };
        }
      });

      // A few servers: a connected socket each, so that a closed port fails at once (ICMP port unreachable); a list keeps one shared socket.
      const client = new QueryClient({
        timeoutMs: opts.timeout,
        retries: opts.retries,
        concurrency: opts.concurrency,
        connect: entries.length <= CONNECT_UP_TO,
      });
      const everything = new AbortController();
      const timer =
        opts.deadline === undefined
          ? undefined
          : setTimeout(
              () =>
                everything.abort(
                  new DeadlineError(`no answer within the overall deadline of ${opts.deadline} ms`, { code: 'deadline', server: '' }),
                ),
              opts.deadline,
            );
      let rows: Row[];
      try {
        const call = { signal: everything.signal, ...(opts.charset ? { charset: opts.charset } : {}) };
        rows = await Promise.all(
          entries.map(async (e): Promise<Row> => {
            if (!e.address) return { server: e.text, error: { type: 'TargetError', code: 'bad-target', message: e.problem! } };
            const { host, port } = e.address;
            try {
              const result =
                kind === 'samp'
                  ? await client.querySamp(host, port, call)
                  : kind === 'vcmp'
                    ? await client.queryVcmp(host, port, call)
                    : await client.queryMinecraft(host, port, { ...call, mode: opts.basic ? 'basic' : 'full' });
              return { server: result.server, result };
            } catch (err) {
              if (!(err instanceof QueryError)) throw err;
              return { server: e.text, error: err.toJSON() };
            }
          }),
        );
      } finally {
        clearTimeout(timer);
        await client.close();
      }

      if (opts.json) {
        process.stdout.write(
          JSON.stringify(
            rows.map((r) => (r.result ? { ok: true, ...r.result } : { server: r.server, ok: false, error: r.error })),
            null,
            2,
          ) + '\n',
        );
      } else {
        process.stdout.write(table(kind, rows));
        if (rows.length === 1 && rows[0]!.result) process.stdout.write(details(rows[0]!.result));
        else for (const r of rows) for (const n of r.result?.notes ?? []) process.stdout.write(`${r.server}: ${n}\n`);
        // A line of the list that is no server address: why, each (the input needs mending).
        const unread = rows.filter((r) => r.error?.type === 'TargetError');
        const failed = rows.filter((r) => r.error && r.error.type !== 'TargetError');
        for (const r of unread) process.stderr.write(`gamequery: ${printable(r.error!.message)}\n`);
        if (rows.length === 1) {
          // One server: why, in full.
          for (const r of failed)
            process.stderr.write(
              `gamequery: ${r.error!.message.includes(r.server) ? '' : `${r.server}: `}${printable(r.error!.message)}\n`,
            );
        } else if (failed.length) {
          // A list: the table says which; one line says how many of each (--json has every message).
          const counts = new Map<string, number>();
          for (const r of failed) counts.set(failure(r.error!.type), (counts.get(failure(r.error!.type)) ?? 0) + 1);
          const kinds = [...counts].map(([what, n]) => `${n} ${what}`).join(', ');
          process.stderr.write(
            `gamequery: ${failed.length} of ${rows.length} servers failed: ${kinds} (--json gives each one's message)\n`,
          );
        }
      }
      // 2: a server that is no address; 3: a server did not answer; 1: one answered with what could not be read.
      const unanswered = new Set(['NoReplyError', 'DeadlineError', 'SendError', 'UnreachableError']);
      if (rows.some((r) => r.error?.type === 'TargetError')) process.exitCode = EXIT.usage;
      else if (rows.some((r) => r.error && unanswered.has(r.error.type))) process.exitCode = EXIT.noAnswer;
      else if (rows.some((r) => r.error)) process.exitCode = EXIT.damaged;
    });
}

const cut = (text: string, width: number): string => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

const rtt = (ms: number): string => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;

/** What one row shows: type, name, players, a second line of info. */
function cells(r: Result): [string, string, string, string, string] {
  switch (r.protocol) {
    case 'samp':
      return [
        r.openmp ? 'open.mp' : 'samp',
        r.info.hostname,
        `${r.info.players}/${r.info.maxPlayers}`,
        [r.info.gamemode, r.info.language].filter(Boolean).join(' · '),
        rtt(r.rttMs),
      ];
    case 'vcmp':
      return [
        'vcmp',
        r.info.hostname,
        `${r.info.players}/${r.info.maxPlayers}`,
        [r.info.gamemode, r.info.map].filter(Boolean).join(' · '),
        rtt(r.rttMs),
      ];
    case 'mcquery':
      return [
        'minecraft',
        r.info.motd,
        `${r.info.numPlayers}/${r.info.maxPlayers}`,
        [r.info.version, r.info.map].filter(Boolean).join(' · '),
        rtt(r.rttMs),
      ];
  }
}

function table(kind: Kind, rows: readonly Row[]): string {
  const head = [
    'SERVER',
    'TYPE',
    'NAME',
    'PLAYERS',
    kind === 'mcquery' ? 'VERSION · MAP' : kind === 'samp' ? 'MODE · LANGUAGE' : 'MODE · MAP',
    'RTT',
  ];
  const body = rows.map((r) => {
    if (!r.result) return [r.server, '-', `(${failure(r.error!.type)})`, '', '', ''];
    const [type, name, players, more, time] = cells(r.result);
    const flat = (t: string): string => printable(t).replace(/\t/g, ' ');
    return [r.server, type, cut(flat(name), 40), players, cut(flat(more), 32), time];
  });
  const widths = head.map((h, i) => body.reduce((w, b) => Math.max(w, b[i]!.length), h.length));
  const line = (cols: readonly string[]): string =>
    cols
      .map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd() + '\n';
  return line(head) + body.map(line).join('');
}

/** Everything about one server, below the table. */
function details(r: Result): string {
  const out: string[] = [''];
  const list = (title: string, rows: readonly string[]): void => {
    out.push(`${title}:`);
    for (const row of rows) out.push(`  ${printable(row)}`);
  };
  switch (r.protocol) {
    case 'samp':
      out.push(`password: ${r.info.password ? 'yes' : 'no'}`);
      out.push(
        printable(
          `flavor: ${r.flavor.name}${r.flavor.evidence.length ? ` (${r.flavor.evidence.join('; ')})` : ' (no rule nor `o` reply says)'}`,
        ),
      );
      if (r.rules)
        list(
          'rules',
          Object.entries(r.rules).map(([k, v]) => `${k} = ${v}`),
        );
      if (r.players) {
        list(
          `players (${r.players.length}, from \`${r.playersFrom}\`)`,
          r.playersFrom === 'd'
            ? r.players.map((p) => `#${p.id} ${p.name}  score ${p.score}  ping ${p.ping} ms`)
            : r.players.map((p) => `${p.name}  score ${p.score}`),
        );
      }
      if (r.ompForm)
        out.push(
          `open.mp \`o\` form: ${r.ompForm} (${r.ompForm === 'echo' ? 'v1.1 or older' : r.ompForm === 'banners' ? 'v1.2' : 'v1.3.1 or later'})`,
        );
      if (r.omp)
        list(
          'open.mp',
          Object.entries(r.omp)
            .filter(([, v]) => v !== '')
            .map(([k, v]) => `${k}: ${v}`),
        );
      break;
    case 'vcmp':
      out.push(`version: ${printable(r.info.version)}`, `password: ${r.info.password ? 'yes' : 'no'}`);
      if (r.players)
        list(
          `players (${r.players.length})`,
          r.players.map((p) => p.name),
        );
      break;
    case 'mcquery':
      out.push(`stat: ${r.mode}${r.handshakes > 1 ? ` (after ${r.handshakes} handshakes)` : ''}`);
      if (r.kv)
        list(
          'keys',
          Object.entries(r.kv).map(([k, v]) => `${k} = ${v}`),
        );
      else
        list('basic stat', [
          `gametype = ${r.info.gametype}`,
          `map = ${r.info.map}`,
          `hostport = ${r.info.hostPort}`,
          `hostip = ${r.info.hostIp}`,
        ]);
      if (r.players) list(`players (${r.players.length})`, r.players);
      break;
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}
