import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const captures = `${root}packages/dissect/test/fixtures/captures/`;
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--conditions=@gamequery/source', '--import', 'tsx', `${root}packages/cli/src/main.ts`, ...args], { cwd: root, encoding: 'utf8' });

describe('gamequery dissect', () => {
  it('streams NDJSON, one packet per line', () => {
    const r = run('dissect', `${captures}veth-frag.pcap`, '-F', 'ndjson');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatchObject({ frame: 5, protocol: 'samp', message: 'info', direction: 'request', responseIn: 6 });
  });

  it('prints tshark -V-like text with selected fields', () => {
    const r = run('dissect', `${captures}lo-us.pcap`, '-F', 'text', '-e', 'samp.info.hostname');
    expect(r.stdout).toContain('    samp.info.hostname: gamequery fixture server');
  });

  it('exits 1 and names the offset when a capture is cut', () => {
    const r = run('dissect', `${captures}lo-us.cut.pcap`, '-F', 'json');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.errors[0]).toMatchObject({ type: 'CaptureError', code: 'truncated' });
    expect(doc.packets.length).toBeGreaterThan(0);
  });
});
