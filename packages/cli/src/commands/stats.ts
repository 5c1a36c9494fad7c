/**
 * `gamequery stats FILE`: per-server statistics of a capture or hex dump, without the
 * packets — `gamequery dissect FILE -q -z stats`, with a table unless `-F json` is given.
 */
import { Command } from 'commander';
import { dissectCommand } from './dissect.ts';

export function statsCommand(): Command {
  return new Command('stats')
    .description('per-server statistics of a capture or hex dump: requests, replies, losses, round-trip times, players, host names')
    .argument('<file>', 'capture file (pcap, pcapng) or text with a hex dump ("-" for stdin)')
    .argument('[options...]', "any option of 'gamequery dissect' (-Y, --timeout, -F json, …)")
    .allowUnknownOption()
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', '\nA table (text), or with -F json the document of dissect -F json with no packets and its "serverStats".')
    .action(async (file: string, rest: string[]) => {
      const format = rest.some((a) => a === '-F' || a.startsWith('--format') || /^-F./.test(a)) ? [] : ['-F', 'text'];
      await dissectCommand().parseAsync([file, '-q', '-z', 'stats', ...format, ...rest], { from: 'user' });
    });
}
