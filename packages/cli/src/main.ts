#!/usr/bin/env node
/** gamequery — the command line. Parses flags, calls the libraries, prints. */
import { Command, CommanderError } from 'commander';
import { boundHeap, largeInput } from './heap.ts';

// A reader that stops early (`gamequery dissect big.pcap | head`) closes the pipe: the output
// ends there, quietly, as it does for tshark.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

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
function commandsFor(args: readonly string[]): string[] {
  const name = args.find((a) => !a.startsWith('-'));
  if (name !== undefined && Object.hasOwn(commands, name)) return [name];
  if (name === undefined && args.length > 0 && args.every((a) => a === '-V' || a === '--version')) return [];
  return Object.keys(commands);
}

async function main(argv: readonly string[]): Promise<void> {
  const names = commandsFor(argv.slice(2));
  // The commands that read captures hold V8's heap to what they need (heap.ts), from before their modules load: where
  // they may read much (a pipe, a live capture, a file of 16 MiB or more).
  if (names.length === 1 && (names[0] === 'dissect' || names[0] === 'stats') && largeInput(argv.slice(2))) boundHeap();
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
  1  the input is damaged (intact packets still printed, the error on stderr)
  2  a usage error, or input that cannot be read at all
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

main(process.argv).catch((e: unknown) => {
  if (e instanceof CommanderError) {
    process.exitCode = e.exitCode === 0 ? 0 : 2;
    return;
  }
  process.stderr.write(`gamequery: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
