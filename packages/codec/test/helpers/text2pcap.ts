/**
 * A request and its reply wrapped by text2pcap into one capture (Ethernet/IPv4/UDP,
 * 10.1.1.1:40000 to 10.2.2.2:`port` and back), dissected by tshark with a generated plugin:
 * the chosen fields of both packets, one line each (`-T fields`, `|` between fields, every
 * occurrence). For the tests of layouts and protocols declared outside the built-in ones.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The capture of a request and its reply (more datagrams: each way in turn), written by text2pcap and mergecap into `work`; its path. */
export function exchangeCapture(work: string, port: number, ...datagrams: readonly Uint8Array[]): string {
  // As text2pcap reads a hex dump: an offset, then the bytes.
  const dump = (bytes: Uint8Array) => `000000 ${Buffer.from(bytes).toString('hex').replace(/(..)/g, '$1 ')}\n`;
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work };
  const parts = datagrams.map((bytes, i) => {
    const [from, to] = i % 2 === 0 ? ['10.1.1.1', '10.2.2.2'] : ['10.2.2.2', '10.1.1.1'];
    const ports = i % 2 === 0 ? `40000,${port}` : `${port},40000`;
    writeFileSync(join(work, `${i}.txt`), dump(bytes));
    execFileSync('text2pcap', ['-q', '-4', `${from},${to}`, '-u', ports, join(work, `${i}.txt`), join(work, `${i}.pcap`)], { env });
    return join(work, `${i}.pcap`);
  });
  execFileSync('mergecap', ['-a', '-w', join(work, 'both.pcap'), ...parts], { env });
  return join(work, 'both.pcap');
}

export function tsharkExchange(
  work: string,
  plugin: string,
  port: number,
  request: Uint8Array,
  reply: Uint8Array,
  fields: readonly string[],
): string[] {
  writeFileSync(join(work, 'plugin.lua'), plugin);
  const capture = exchangeCapture(work, port, request, reply);
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, 'config'), HOME: work };
  const out = execFileSync(
    'tshark',
    [
      '-2',
      '-n',
      '-X',
      `lua_script:${join(work, 'plugin.lua')}`,
      '-r',
      capture,
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
