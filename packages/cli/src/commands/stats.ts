/**
 * `gamequery stats FILE`: per-server statistics of a capture or hex dump, without the
 * packets — `gamequery dissect FILE -q -z stats`, with a table unless `-F json` is given.
 * `gamequery stats -i IFACE`: of a live capture, until Ctrl-C.
 */
import { Command } from 'commander';
import { dissectCommand } from './dissect.ts';

export function statsCommand(): Command {
  return new Command('stats')
    .description(
      'per-server statistics of a capture, a hex dump or a live capture: requests, replies, losses, round-trip times, players, host names, bytes each way and amplification (also by message)',
    )
    .argument('[file]', 'capture file (pcap, pcapng) or text with a hex dump ("-" for stdin); none with -i')
    .argument('[options...]', "any option of 'gamequery dissect' (-Y, --timeout, -F json, -i IFACE -f FILTER, …)")
    .allowUnknownOption()
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      `
A table (text), or with -F json the document of dissect -F json with no packets and its "serverStats".
Reading an attack:
  --by source          who is asking: top sources and networks, where the replies go, RCON guessing
  --top N              how many sources and networks to list (default 20)
  -z io,stat,INTERVAL  the rate over time, as tshark takes it (live with -i or a pipe: each interval as it closes)
  -z io,phs            what else the capture holds: tshark's protocol hierarchy, the query protocols named
  -F html              the statistics as charts, in one page that needs no network`,
    )
    .action(async (file: string | undefined, rest: string[]) => {
      // The arguments as given (an option before the file, `-i lo`, lands in `file`: commander
      // takes everything from the first option it does not know as unknown), after ours.
      const given = file === undefined ? rest : [file, ...rest];
      const format = given.some((a) => a === '-F' || a.startsWith('--format') || /^-F./.test(a)) ? [] : ['-F', 'text'];
      // Its usage errors exit 2 as every command's do (cli.ts), not commander's 1.
      await dissectCommand()
        .exitOverride()
        .parseAsync(['-q', '-z', 'stats', ...format, ...given], { from: 'user' });
    });
}
