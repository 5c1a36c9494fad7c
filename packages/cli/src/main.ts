#!/usr/bin/env node
/** gamequery — the command line. Parses flags, calls the libraries, prints. */
import { Command } from 'commander';
import { decodeCommand } from './commands/decode.ts';
import { fieldsCommand } from './commands/fields.ts';
import { dissectCommand } from './commands/dissect.ts';
import { serveCommand } from './commands/serve.ts';
import { exportCommand } from './commands/export.ts';
import { queryCommand } from './commands/query.ts';
import { rconCommand } from './commands/rcon.ts';
import { pingCommand } from './commands/ping.ts';

// A reader that stops early (`gamequery dissect big.pcap | head`) closes the pipe: the output
// ends there, quietly, as it does for tshark.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

const program = new Command('gamequery')
  .description('Dissect, decode and query SA:MP / open.mp, VC:MP and Minecraft query traffic')
  .version('0.1.0')
  .showHelpAfterError();

program.addCommand(dissectCommand());
program.addCommand(decodeCommand());
program.addCommand(fieldsCommand());
program.addCommand(serveCommand());
program.addCommand(exportCommand());
program.addCommand(queryCommand());
program.addCommand(rconCommand());
program.addCommand(pingCommand());

program.parseAsync(process.argv).catch((e: unknown) => {
  process.stderr.write(`gamequery: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
