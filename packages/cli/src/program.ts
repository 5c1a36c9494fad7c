/**
 * The program: `gamequery ARGS…` parsed and run, without the process around it (cli.ts: the
 * command as installed). Its output goes to process.stdout and process.stderr and its exit
 * code to process.exitCode, as the commands write them; the CLI's tests run it in process too
 * (packages/cli/test/cli.ts), from the bundle's `program.js`.
 */
import { Command, CommanderError } from 'commander';

/**
 * Every subcommand, in the order `--help` lists them, each behind its own import: a run loads
 * only the module graph of the command it runs (the query client, the emulator, the exporters
 * and their dependencies cost start-up time to every other command).
 */
const commands: Record<string, () => Promise<Command>> = {
  dissect: async () => (await import('./commands/dissect.ts')).dissectCommand(),
  stats: async () => (await import('./commands/stats.ts')).statsCommand(),
  decode: async () => (await import('./commands/decode.ts')).decodeCommand(),
  fields: async () => (await import('./commands/fields.ts')).fieldsCommand(),
  serve: async () => (await import('./commands/serve.ts')).serveCommand(),
  export: async () => (await import('./commands/export.ts')).exportCommand(),
  query: async () => (await import('./commands/query.ts')).queryCommand(),
  rcon: async () => (await import('./commands/rcon.ts')).rconCommand(),
  ping: async () => (await import('./commands/ping.ts')).pingCommand(),
};

/**
 * The commands a run needs: the one named (the program's own options take no values, so it
 * is the first argument that is not an option), none for `--version` alone, and all of them
 * for anything else (the program's help, `help CMD`, an unknown command and its suggestion).
 */
export function commandsFor(args: readonly string[]): string[] {
  const name = args.find((a) => !a.startsWith('-'));
  if (name !== undefined && Object.hasOwn(commands, name)) return [name];
  if (name === undefined && args.length > 0 && args.every((a) => a === '-V' || a === '--version')) return [];
  return Object.keys(commands);
}

/** Runs `gamequery` with `argv` (node's: the program's arguments from the third); {@link failed} takes what it throws. */
export async function runProgram(argv: readonly string[]): Promise<void> {
  const names = commandsFor(argv.slice(2));
  // The program's own help, shown where every command is loaded, names the protocols as their declarations do.
  const args = names.length > 1 ? await import('./args.ts') : undefined;
  const protocols = args?.PROTOCOL_HELP;
  const program = new Command('gamequery')
    .description(`Dissect, decode and query game servers' UDP query traffic${args ? ` (${args.shortTitles()})` : ''}`)
    .version('0.1.0')
    // The program's options come before a command: `dissect FILE -V` is dissect's -V (the tree), not the version.
    .enablePositionalOptions()
    .addHelpText(
      'after',
      `${protocols ? `\nProtocols, in every command: ${protocols}.\n` : ''}
Exit codes, in every command:
  0  all good
  1  the input is damaged (what was intact still printed, the error on stderr)
  2  a usage error; input that cannot be read at all; a damaged capture, as
     tshark (cut short, a bad block, damaged gzip: its intact packets still printed)
  3  query, rcon, ping: a server did not answer`,
    )
    .showHelpAfterError();
  for (const command of await Promise.all(names.map((name) => commands[name]!()))) {
    program.addCommand(command);
  }
  // A usage error exits 2 in every command (commander's own code is 1); it has printed its message.
  const throwing = (c: Command): void => {
    c.exitOverride();
    for (const sub of c.commands) throwing(sub);
  };
  throwing(program);
  await program.parseAsync(argv);
}

/** What a run threw: a usage error has printed its message (exit 2; help and --version exit 0); anything else is said in one line. */
export function failed(e: unknown): void {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
    return;
  }
  process.stderr.write(`gamequery: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
