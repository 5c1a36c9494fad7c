/**
 * `-t FORMAT`: the summary lines' time column as tshark's `-t` writes it, every format, checked
 * against tshark on the same capture with the same display filter (so that `dd`, since the packet
 * shown before, differs from `d`, since the frame before), in a time zone half an hour off the
 * hour for the local formats, at the capture's resolution (nanoseconds, microseconds).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TIME_FORMATS } from '@gamequery/dissect';
import { cliArgs, root, runSync as run } from './cli.ts';
import { tsharkSync } from '../../codec/test/helpers/tshark-run.ts';

const captures = `${root}packages/dissect/test/fixtures/captures/`;
/** India: UTC+5:30, no daylight saving; the formats in local time must not read UTC. */
const TZ = 'Asia/Kolkata';
const FILTER = 'udp.srcport == 47777 || udp.srcport == 47778';

/** The time column of each line: the words after the frame number, one or two (a date and a time). */
const times = (text: string, format: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const words = l.trim().split(/\s+/);
      return words.slice(1, /^[au]d/.test(format) ? 3 : 2).join(' ');
    });

function tshark(file: string, format: string): string[] {
  const r = tsharkSync(['-r', file, '-Y', FILTER, '-t', format], { encoding: 'utf8', env: { ...process.env, TZ } });
  expect(r.status, r.stderr).toBe(0);
  return times(r.stdout, format);
}

function ours(file: string, format: string): string[] {
  const args = ['dissect', file, '-Y', FILTER, '-t', format];
  // The local formats in a child process of that time zone; the rest in process.
  const r = format.startsWith('a')
    ? spawnSync(process.execPath, cliArgs(args), { cwd: root, encoding: 'utf8', env: { ...process.env, TZ } })
    : run(...args);
  expect(r.status, r.stderr).toBe(0);
  return times(r.stdout, format);
}

describe('-t: the time column as tshark -t writes it', () => {
  it.each(TIME_FORMATS.map((f) => [f]))('-t %s, a nanosecond pcapng', (format) => {
    const file = `${captures}lo.pcapng`;
    const theirs = tshark(file, format);
    expect(theirs.length).toBeGreaterThanOrEqual(4);
    expect(ours(file, format)).toEqual(theirs);
  });

  // At microseconds: a fraction of six places (the other formats read the same fraction, or a difference, as at ns).
  it.each([['ad']])('-t %s, a microsecond pcap', (format) => {
    const file = `${captures}lo-us.pcap`;
    expect(ours(file, format)).toEqual(tshark(file, format));
  });

  it('-t dd counts from the packet shown before: the first shown is 0, and -t d differs where -Y left frames out', () => {
    const file = `${captures}lo.pcapng`;
    const d = ours(file, 'd');
    const dd = ours(file, 'dd');
    expect(dd[0]).toBe('0.000000000');
    expect(dd).not.toEqual(d);
  });

  it("_ws.col.Time in -T fields follows -t as tshark's does (-t dd: since the line written before)", () => {
    const file = `${captures}lo.pcapng`;
    for (const format of ['dd', 'e']) {
      const args = ['-r', file, '-Y', FILTER, '-t', format, '-T', 'fields', '-e', 'frame.number', '-e', '_ws.col.Time'];
      const theirs = tsharkSync(args, { encoding: 'utf8' });
      expect(theirs.status, theirs.stderr).toBe(0);
      expect(run('dissect', ...args).stdout).toBe(theirs.stdout);
    }
  });

  it('an unknown format is a usage error naming the formats', () => {
    const r = run('dissect', `${captures}lo.pcapng`, '-t', 'x');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/argument 'x' is invalid\. Allowed choices are r, d, dd, e, a, ad, adoy, u, ud, udoy/);
  });
});
