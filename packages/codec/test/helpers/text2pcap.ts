/**
 * A request and its reply wrapped by text2pcap into one capture (Ethernet/IPv4/UDP,
 * 10.1.1.1:40000 to 10.2.2.2:`port` and back), dissected by tshark with a generated plugin:
 * the chosen fields of both packets, one line each (`-T fields`, `|` between fields, every
 * occurrence). For the tests of layouts and protocols declared outside the built-in ones.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function tsharkExchange(
  work: string,
  plugin: string,
  port: number,
  request: Uint8Array,
  reply: Uint8Array,
  fields: readonly string[],
): string[] {
  writeFileSync(join(work, 'plugin.lua'), plugin);
  // As text2pcap reads a hex dump: an offset, then the bytes.
  const dump = (bytes: Uint8Array) => `000000 ${Buffer.from(bytes).toString('hex').replace(/(..)/g, '$1 ')}\n`;
  writeFileSync(join(work, 'request.txt'), dump(request));
  writeFileSync(join(work, 'reply.txt'), dump(reply));
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work };
  execFileSync('text2pcap', ['-q', '-4', '10.1.1.1,10.2.2.2', '-u', `40000,${port}`, join(work, 'request.txt'), join(work, 'a.pcap')], {
    env,
  });
  execFileSync('text2pcap', ['-q', '-4', '10.2.2.2,10.1.1.1', '-u', `${port},40000`, join(work, 'reply.txt'), join(work, 'b.pcap')], {
    env,
  });
  execFileSync('mergecap', ['-a', '-w', join(work, 'both.pcap'), join(work, 'a.pcap'), join(work, 'b.pcap')], { env });
  const out = execFileSync(
    'tshark',
    [
      '-2',
      '-n',
      '-X',
      `lua_script:${join(work, 'plugin.lua')}`,
      '-r',
      join(work, 'both.pcap'),
      '-T',
      'fields',
      '-E',
      'separator=|',
      '-E',
      'occurrence=a',
      ...fields.flatMap((f) => ['-e', f]),
    ],
    { encoding: 'utf8', env },
  );
  return out.trim().split('\n');
}
