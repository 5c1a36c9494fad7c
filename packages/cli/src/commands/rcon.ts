/**
 * `gamequery rcon HOST:PORT COMMAND...`: run a console command on a SA:MP / open.mp server
 * and print its output, one line per reply datagram. The password comes from a file or
 * the environment, never from the command line (shell history, `ps`), and is never printed.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { charsets, type Charset } from '@gamequery/codec';
import { maskSecrets, rconSecrets } from '@gamequery/codec/internal';
import { DeadlineError, NoReplyError, QueryClient, QueryError, UnreachableError, defaultPorts, parseServer } from '@gamequery/codec/node';
import { printable } from './query.ts';
import { EXIT, integer, formatOption, printsJson } from '../args.ts';

interface Opts {
  format?: 'text' | 'json';
  passwordFile?: string;
  password?: string;
  timeout: number;
  quiet: number;
  retries: number;
  charset?: Charset;
  json?: boolean;
  showSecrets?: boolean;
}

const ENV = 'GAMEQUERY_RCON_PASSWORD';

function password(opts: Opts): string {
  // Known, so that commander never quotes it back as an unknown option (`--password=…`).
  if (opts.password !== undefined)
    throw new Error(`--password is not accepted (shell history, ps): pass --password-file FILE or set ${ENV}`);
  if (opts.passwordFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(opts.passwordFile, 'utf8');
    } catch (e) {
      // Not the path: it might be the password itself, given where a path belongs.
      throw new Error(`cannot read the --password-file: ${(e as { code?: string }).code ?? 'unreadable'}`);
    }
    const first = text.split(/\r?\n/)[0] ?? '';
    if (first === '') throw new Error('the first line of the --password-file (the RCON password) is empty');
    return first;
  }
  const fromEnv = process.env[ENV];
  if (fromEnv) return fromEnv;
  throw new Error(`no RCON password: pass --password-file FILE or set ${ENV}`);
}

export function rconCommand(): Command {
  return new Command('rcon')
    .description('run an RCON command on a SA:MP / open.mp server and print its output')
    .argument('<server>', `HOST[:PORT], [IPv6]:PORT (default port ${defaultPorts.samp})`)
    .argument('<command...>', 'console command and its arguments, e.g. players (put -- before one that starts with -)')
    .option('--password-file <file>', `read the RCON password from the first line of this file (else $${ENV})`)
    .addOption(new Option('--password <secret>').hideHelp())
    .option('--timeout <ms>', 'wait this long for the first line', integer(1, 600_000), 1000)
    .option('--quiet <ms>', 'the output has ended after this much silence', integer(1, 600_000), 500)
    .option('--retries <n>', 'send again when nothing comes back (the command may then run twice)', integer(0, 10), 0)
    .addOption(new Option('--charset <name>', 'charset of password, command and output').choices([...charsets]))
    .option('--json', 'print JSON: server, command, lines, rttMs')
    .addOption(formatOption(false))
    .option('--show-secrets', 'print the password and one the command sets where the output echoes them (masked as ******** otherwise)')
    .addHelpText(
      'after',
      `
The password travels in clear text (that is the protocol); it is read from a file or
$${ENV} only, and never printed, not in errors either: where the output echoes it (varlist),
or a password the command sets (rcon_password NEW), it shows as ******** unless --show-secrets.
A closed port (ICMP port unreachable) fails at once: "port unreachable", exit 3.

Example:
  GAMEQUERY_RCON_PASSWORD=changeme gamequery rcon 127.0.0.1:7777 players`,
    )
    .action(async (serverText: string, words: string[], opts: Opts) => {
      opts.json = printsJson(opts);
      const { host, port } = parseServer(serverText, defaultPorts.samp);
      const secret = password(opts);
      const command = words.join(' ');
      // A connected socket: a closed port is reported at once (ICMP port unreachable), not taken for a silent RCON.
      // The output may echo the password (varlist) or one the command sets (rcon_password NEW): masked, as the command is.
      const secrets = rconSecrets({ password: secret, command });
      const shown = (text: string): string => (opts.showSecrets ? text : maskSecrets(text, secrets));
      const client = new QueryClient({ timeoutMs: opts.timeout, rconQuietMs: opts.quiet, connect: true });
      try {
        const r = await client.rcon(host, port, secret, command, {
          retries: opts.retries,
          ...(opts.charset ? { charset: opts.charset } : {}),
        });
        const lines = r.lines.map(shown);
        if (opts.json)
          process.stdout.write(JSON.stringify({ server: r.server, command: shown(r.command), lines, rttMs: r.rttMs }, null, 2) + '\n');
        else for (const line of lines) process.stdout.write(`${printable(line)}\n`);
      } catch (e) {
        if (!(e instanceof QueryError)) throw e;
        if (opts.json)
          process.stdout.write(JSON.stringify({ server: e.info.server, command: shown(command), error: e.toJSON() }, null, 2) + '\n');
        process.stderr.write(`gamequery: ${printable(e.message)}\n`);
        // 3: no answer (a silent or unreachable server); 1: the server refused (wrong password) or the command cannot be sent.
        process.exitCode =
          e instanceof NoReplyError || e instanceof DeadlineError || e instanceof UnreachableError ? EXIT.noAnswer : EXIT.damaged;
      } finally {
        await client.close();
      }
    });
}
