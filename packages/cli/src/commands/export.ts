/** `gamequery export`: the Wireshark plugin and Kaitai Struct definitions, generated from the layouts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';

// Loaded on use: the generators are not needed by any other command.
const exporters = () => import('@gamequery/codec/export');

export function exportCommand(): Command {
  const command = new Command('export').description('generate third-party definitions from the layout declarations');

  command
    .command('wireshark')
    .description('the Wireshark Lua plugin for all three protocols (tshark -X lua_script:FILE, or the personal plugins folder)')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (opts: { output?: string }) => {
      const lua = (await exporters()).exportWireshark();
      if (!opts.output) {
        process.stdout.write(lua);
        return;
      }
      writeFileSync(opts.output, lua);
      process.stderr.write(`wrote ${opts.output}\n`);
    });

  command
    .command('kaitai')
    .description('Kaitai Struct definitions, one .ksy per message layout')
    .option('-o, --output <dir>', 'write the .ksy files into this directory (created if needed) instead of stdout')
    .action(async (opts: { output?: string }) => {
      const files = (await exporters()).exportKaitai();
      if (!opts.output) {
        // One YAML stream, a document per file.
        process.stdout.write([...files].map(([name, text]) => `--- # ${name}\n${text}`).join(''));
        return;
      }
      mkdirSync(opts.output, { recursive: true });
      for (const [name, text] of files) writeFileSync(join(opts.output, name), text);
      process.stderr.write(`wrote ${files.size} files to ${opts.output}\n`);
    });

  return command;
}
