/** `gamequery fields`: every field abbreviation, like `tshark -G fields`. */
import { Command } from 'commander';
import { fieldRegistry, type Protocol } from '@gamequery/codec';
import { PROTOCOL_HELP, parseProtocol, formatOption } from '../args.ts';

export function fieldsCommand(): Command {
  return new Command('fields')
    .description('list every field abbreviation with its label, type and protocol (like tshark -G fields)')
    .option('--protocol <name>', `only this protocol: ${PROTOCOL_HELP}`, parseProtocol)
    .addOption(formatOption(true))
    .action((opts: { protocol?: Protocol; format: 'text' | 'json' }) => {
      const rows = fieldRegistry.filter((f) => !opts.protocol || f.protocol === opts.protocol);
      if (opts.format === 'json') {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      for (const f of rows) {
        const base = f.base === 'none' ? 'BASE_NONE' : `BASE_${f.base.toUpperCase()}`;
        process.stdout.write(['F', f.label, f.abbrev, f.type, f.protocol, base, f.doc].join('\t') + '\n');
      }
    });
}
