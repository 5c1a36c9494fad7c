/**
 * `gamequery ping samp|vcmp HOST[:PORT]...`: SA:MP / VC:MP `p` round trips, like ping(8).
 * Every `p` carries a fresh random nonce (the library's `ping`), so a late reply is never
 * taken for a later request; each is sent once, and silence counts as loss. Servers are
 * pinged side by side; Ctrl-C stops early and still prints the statistics.
 */
import { Argument, Command } from 'commander';
import {
  NoReplyError,
  QueryClient,
  QueryError,
  UnreachableError,
  parseServer,
  type PingResult,
  type ServerAddress,
} from '@gamequery/codec/node';
import { printable } from './query.ts';
import { EXIT, declarationOf, integer, protocolAmong, protocolHelp, shortTitles, formatOption, printsJson } from '../args.ts';

/** The protocols the client's `ping` speaks (its `protocol` option: the `p` query). */
type Kind = PingResult['protocol'];
const PINGED: readonly Kind[] = ['samp', 'vcmp'];

interface Opts {
  format?: 'text' | 'json';
  count: number;
  interval: number;
  timeout: number;
  json?: boolean;
}

type Reply = { readonly seq: number; readonly rttMs: number } | { readonly seq: number; readonly error: ReturnType<QueryError['toJSON']> };

interface Report {
  /** The server as given on the command line. */
  readonly server: string;
  /** The host pinged and its port (the protocol's default where none was given). */
  readonly host: string;
  readonly port: number;
  readonly protocol: Kind;
  sent: number;
  received: number;
  readonly replies: Reply[];
  /** What stopped the pings to this server early (no such host, cannot send…). */
  error?: { readonly type: string; readonly message: string };
}

interface Summary {
  readonly lossPercent: number;
  readonly rttMs: { readonly min: number; readonly avg: number; readonly max: number; readonly mdev: number } | null;
}

/** min/avg/max and ping(8)'s mdev (the standard deviation), ms. */
export function summarize(r: Pick<Report, 'sent' | 'received' | 'replies'>): Summary {
  const rtts = r.replies.flatMap((x) => ('rttMs' in x ? [x.rttMs] : []));
  const lossPercent = r.sent === 0 ? 0 : Math.round(((r.sent - r.received) / r.sent) * 1000) / 10;
  if (rtts.length === 0) return { lossPercent, rttMs: null };
  const avg = rtts.reduce((a, b) => a + b, 0) / rtts.length;
  const square = rtts.reduce((a, b) => a + b * b, 0) / rtts.length;
  const min = rtts.reduce((m, x) => Math.min(m, x), Infinity);
  const max = rtts.reduce((m, x) => Math.max(m, x), -Infinity);
  return { lossPercent, rttMs: { min, avg, max, mdev: Math.sqrt(Math.max(0, square - avg * avg)) } };
}

const ms = (n: number): string => n.toFixed(3);

/** Resolves after `delay` ms, or at once when `signal` fires. */
const sleep = (delay: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted || delay <= 0) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, delay);
    signal.addEventListener('abort', done, { once: true });
  });

export function pingCommand(): Command {
  return new Command('ping')
    .description(`measure round trips to ${shortTitles(PINGED, 'or')} servers with the \`p\` query, like ping(8)`)
    .addArgument(new Argument('<protocol>', protocolHelp(PINGED, 'or')).argParser(protocolAmong(PINGED)))
    .argument('<servers...>', `HOST[:PORT], [IPv6]:PORT (default ports ${PINGED.map((p) => declarationOf(p).defaultPort).join(', ')})`)
    .option('-c, --count <n>', 'stop after this many requests per server', integer(1, 1_000_000), 4)
    .option('-i, --interval <ms>', 'send one request per server this often', integer(10, 3_600_000), 1000)
    .option('--timeout <ms>', 'a request not answered within this long is lost', integer(1, 600_000), 1000)
    .option('--json', 'print JSON at the end instead of a line per reply')
    .addOption(formatOption(false))
    .addHelpText(
      'after',
      `
Each request carries a fresh random nonce and is sent once; a reply is matched by server
address, port and nonce. Times are from send to receive on the socket, in ms.
A closed port (ICMP port unreachable) stops that server at once: "port unreachable", exit 3.

Examples:
  gamequery ping samp 127.0.0.1:7777
  gamequery ping vcmp [::1]:8192 --count 10 --interval 200 --json`,
    )
    .action(async (kind: Kind, texts: string[], opts: Opts) => {
      opts.json = printsJson(opts);
      const targets = texts.map((text) => ({ text, address: parseServer(text, declarationOf(kind).defaultPort) }));
      const stop = new AbortController();
      const interrupt = (): void => stop.abort(new Error('interrupted'));
      process.once('SIGINT', interrupt);
      // A connected socket per server: a closed port is reported at once (ICMP port unreachable), not after the timeout.
      const client = new QueryClient({ timeoutMs: opts.timeout, retries: 0, connect: true });
      const started = performance.now();
      const print = (line: string): void => {
        if (!opts.json) process.stdout.write(`${line}\n`);
      };
      let reports: Report[];
      try {
        if (!opts.json) {
          for (const t of targets)
            print(
              `PING ${t.text} (${declarationOf(kind).shortTitle} \`p\`, ${opts.count} × every ${opts.interval} ms, timeout ${opts.timeout} ms)`,
            );
        }
        reports = await Promise.all(targets.map((t) => pingServer(client, kind, t, opts, stop.signal, print)));
      } finally {
        process.off('SIGINT', interrupt);
        await client.close();
      }
      const elapsed = Math.round(performance.now() - started);

      if (opts.json) {
        process.stdout.write(
          JSON.stringify(
            reports.map((r) => ({ ...r, ...summarize(r) })),
            null,
            2,
          ) + '\n',
        );
      } else {
        for (const r of reports) {
          if (r.error) process.stderr.write(`gamequery: ${printable(r.error.message)}\n`);
          if (r.sent === 0) continue;
          const s = summarize(r);
          print(`\n--- ${r.server} ${declarationOf(kind).shortTitle} ping statistics ---`);
          // As ping(8): "+N errors" counts the requests answered with an error (port unreachable), not silence.
          const errors = r.replies.filter((x) => 'error' in x && x.error.type !== 'NoReplyError').length;
          print(
            `${r.sent} requests sent, ${r.received} replies received${errors ? `, +${errors} errors` : ''}, ${s.lossPercent}% loss, time ${elapsed} ms`,
          );
          if (s.rttMs) print(`rtt min/avg/max/mdev = ${ms(s.rttMs.min)}/${ms(s.rttMs.avg)}/${ms(s.rttMs.max)}/${ms(s.rttMs.mdev)} ms`);
        }
      }
      // As ping(8): a server that never answered fails the run (exit 3, as query and rcon).
      if (reports.some((r) => r.received === 0)) process.exitCode = EXIT.noAnswer;
    });
}

/** `count` pings to one server, one every `interval` ms, each waiting up to the client's timeout. */
async function pingServer(
  client: QueryClient,
  kind: Kind,
  target: { readonly text: string; readonly address: ServerAddress },
  opts: Opts,
  stop: AbortSignal,
  print: (line: string) => void,
): Promise<Report> {
  const { host, port } = target.address;
  const report: Report = { server: target.text, host, port, protocol: kind, sent: 0, received: 0, replies: [] };
  const fatal = new AbortController();
  const signal = AbortSignal.any([stop, fatal.signal]);
  const out: Promise<void>[] = [];
  const start = performance.now();
  for (let seq = 1; seq <= opts.count && !signal.aborted; seq++) {
    await sleep(start + (seq - 1) * opts.interval - performance.now(), signal);
    if (signal.aborted) break;
    out.push(
      client.ping(host, port, { protocol: kind, retries: 0, signal }).then(
        (r) => {
          report.sent++;
          report.received++;
          report.replies.push({ seq, rttMs: r.rttMs });
          print(`reply from ${r.server}: seq=${seq} time=${ms(r.rttMs)} ms`);
        },
        (e: unknown) => {
          if (!(e instanceof QueryError)) throw e;
          if (e instanceof NoReplyError) {
            report.sent++;
            report.replies.push({ seq, error: e.toJSON() });
            print(`no reply from ${target.text}: seq=${seq} (timeout ${opts.timeout} ms)`);
          } else if (e instanceof UnreachableError) {
            // Sent, and the host said nothing listens there (ICMP): ping(8)'s "Destination Port Unreachable", an error; no more to this server.
            report.sent++;
            report.replies.push({ seq, error: e.toJSON() });
            print(`from ${target.text}: seq=${seq} port unreachable`);
            report.error ??= { type: e.name, message: e.message };
            fatal.abort(e);
          } else if (e.info.code !== 'aborted' || fatal.signal.aborted) {
            // Not a lost datagram but a reason to stop: no such host, no route, no socket.
            report.error ??= { type: e.name, message: e.message };
            fatal.abort(e);
          }
          // Aborted by Ctrl-C while waiting: neither answered nor given its full time, so not counted.
        },
      ),
    );
  }
  await Promise.all(out);
  report.replies.sort((a, b) => a.seq - b.seq);
  return report;
}
