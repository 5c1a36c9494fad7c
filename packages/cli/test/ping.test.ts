/**
 * `gamequery ping` as a user runs it: against the emulator on loopback, and against a
 * scripted echo server that loses one `p` and answers another too late, so that loss and
 * late replies are counted as ping(8) counts them. Every wait is bounded.
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@gamequery/codec/node';
import { gamequery } from './cli.ts';

let emulator: Emulator;
const at = (i: number): string => {
  const s = emulator.servers[i]!;
  return s.address.includes(':') ? `[${s.address}]:${s.port}` : `${s.address}:${s.port}`;
};

beforeAll(async () => {
  emulator = await startEmulator({
    servers: [
      { flavor: 'samp037', port: 0, hostname: 'ping samp', maxPlayers: 10 },
      { flavor: 'openmp', port: 0, host: '::1', hostname: 'ping open.mp', maxPlayers: 10 },
      { flavor: 'vcmp', port: 0, hostname: 'ping vcmp', maxPlayers: 10 },
    ],
  });
});
afterAll(async () => {
  await emulator.close();
});

/**
 * A `p` echo server on 127.0.0.1 that does to the n-th request (0-based) what `plan(n)`
 * says: 'drop', or echo it after that many ms.
 */
async function echoServer(
  plan: (n: number) => 'drop' | number,
): Promise<{ port: number; requests: Uint8Array[]; close: () => Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  const timers = new Set<NodeJS.Timeout>();
  const requests: Uint8Array[] = [];
  await new Promise<void>((resolve) => socket.bind({ address: '127.0.0.1', port: 0 }, () => resolve()));
  socket.on('message', (msg, rinfo) => {
    const what = plan(requests.length);
    requests.push(new Uint8Array(msg));
    if (what === 'drop') return;
    const t = setTimeout(() => {
      timers.delete(t);
      socket.send(msg, rinfo.port, rinfo.address);
    }, what);
    timers.add(t);
  });
  return {
    port: socket.address().port,
    requests,
    close: () => {
      for (const t of timers) clearTimeout(t);
      return new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

const RTT = /time=(\d+\.\d{3}) ms$/;

describe('gamequery ping', () => {
  it('prints one line per reply with the time in ms to the microsecond, then ping(8)-style statistics', async () => {
    const r = await gamequery(['ping', 'samp', at(0), at(1), '--count', '3', '--interval', '30']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const server of [at(0), at(1)]) {
      expect(r.stdout).toContain(`PING ${server} (SA:MP \`p\`, 3 × every 30 ms, timeout 1000 ms)`);
      const replies = r.stdout.split('\n').filter((l) => l.startsWith(`reply from ${server}: `));
      expect(replies.map((l) => /seq=(\d+)/.exec(l)![1]).sort()).toEqual(['1', '2', '3']);
      for (const l of replies) expect(l).toMatch(RTT);
      expect(r.stdout).toContain(`--- ${server} SA:MP ping statistics ---\n3 requests sent, 3 replies received, 0% loss, time `);
    }
    expect(r.stdout).toMatch(/^rtt min\/avg\/max\/mdev = \d+\.\d{3}\/\d+\.\d{3}\/\d+\.\d{3}\/\d+\.\d{3} ms$/m);
    expect(emulator.stats().servers[0]!.answered).toBeGreaterThanOrEqual(3);
  });

  it('pings VC:MP and prints JSON', async () => {
    const r = await gamequery(['ping', 'vcmp', at(2), '-c', '2', '-i', '20', '--json']);
    expect(r.code).toBe(0);
    const [report] = JSON.parse(r.stdout) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the command's JSON, read as loosely as JSON.parse returns it
    expect(report).toMatchObject({ server: at(2), protocol: 'vcmp', sent: 2, received: 2, lossPercent: 0 });
    expect(`${report!['host']}:${report!['port']}`).toBe(at(2));
    // Without a port: the protocol's default, said in the report (nothing listens there: refused at once).
    const bare = await gamequery(['ping', 'vcmp', '127.0.0.1', '-c', '1', '--json']);
    expect(JSON.parse(bare.stdout)[0]).toMatchObject({ server: '127.0.0.1', host: '127.0.0.1', port: 8192, protocol: 'vcmp' });
    expect(report!['replies'].map((x: { seq: number }) => x.seq)).toEqual([1, 2]);
    const { min, avg, max, mdev } = report!['rttMs'];
    expect(0 < min && min <= avg && avg <= max && mdev >= 0).toBe(true);
  });

  it('counts a lost request and one answered after its timeout as loss, and never takes the late reply for a later request', async () => {
    // One request every 300 ms, each waiting 600 ms: the 2nd and 5th are lost; the 3rd is answered 900 ms late,
    // while the 5th still waits for its own reply: its nonce tells them apart.
    const plan = ['echo', 'drop', 'late', 'echo', 'drop'];
    const echo = await echoServer((n) => (plan[n] === 'drop' ? 'drop' : plan[n] === 'late' ? 900 : 0));
    try {
      const r = await gamequery(['ping', 'samp', `127.0.0.1:${echo.port}`, '-c', '5', '-i', '300', '--timeout', '600', '--json']);
      expect(r.code).toBe(0);
      const [report] = JSON.parse(r.stdout) as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the command's JSON, read as loosely as JSON.parse returns it
      expect(report).toMatchObject({ sent: 5, received: 2, lossPercent: 60 });
      const replies = report!['replies'] as Array<{ seq: number; rttMs?: number; error?: { type: string; code: string } }>;
      expect(replies.map((x) => [x.seq, x.rttMs !== undefined ? 'reply' : x.error!.type])).toEqual([
        [1, 'reply'],
        [2, 'NoReplyError'],
        [3, 'NoReplyError'],
        [4, 'reply'],
        [5, 'NoReplyError'],
      ]);
      // 15-byte `p` requests, each with a nonce of its own.
      expect(echo.requests.map((q) => [q.length, String.fromCharCode(q[10]!)])).toEqual(Array(5).fill([15, 'p']));
      expect(new Set(echo.requests.map((q) => Buffer.from(q.subarray(11)).toString('hex'))).size).toBe(5);
    } finally {
      await echo.close();
    }
  });

  it('fails with exit code 3 when a server never answers, and says why', async () => {
    const echo = await echoServer(() => 'drop');
    try {
      const r = await gamequery(['ping', 'samp', `127.0.0.1:${echo.port}`, at(0), '-c', '2', '-i', '20', '--timeout', '1000']);
      expect(r.code).toBe(3);
      expect(r.stdout).toContain(`no reply from 127.0.0.1:${echo.port}: seq=1 (timeout 1000 ms)`);
      expect(r.stdout).toContain('2 requests sent, 0 replies received, 100% loss');
      expect(r.stdout).toContain('2 requests sent, 2 replies received, 0% loss');
    } finally {
      await echo.close();
    }
  });

  it('a closed port: the request sent, "port unreachable", and the statistics block with the error, as ping(8) prints them', async () => {
    // Room enough for the port-unreachable error to come back before a second request, on a loaded machine too.
    const r = await gamequery(['ping', 'samp', '127.0.0.1:1', '-c', '3', '-i', '300']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('from 127.0.0.1:1: seq=1 port unreachable\n');
    expect(r.stdout).toContain(
      '\n--- 127.0.0.1:1 SA:MP ping statistics ---\n1 requests sent, 0 replies received, +1 errors, 100% loss, time ',
    );
    expect(r.stderr).toBe('gamequery: 127.0.0.1:1: port unreachable (the host says nothing listens on UDP port 1)\n');
  });

  it('stops on Ctrl-C and still prints the statistics', async () => {
    const r = await gamequery(['ping', 'samp', at(0), '-c', '1000', '-i', '50'], {
      watch: (out, interrupt) => {
        if (out.includes('seq=3 ')) interrupt();
      },
    });
    expect(r.code).toBe(0);
    const sent = Number(/^(\d+) requests sent, \1 replies received, 0% loss/m.exec(r.stdout)?.[1]);
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThan(1000);
  });

  it('refuses an address it cannot read', async () => {
    const r = await gamequery(['ping', 'samp', '127.0.0.1:99999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the port must be a number in 1..65535');
  });
});

describe('ping: the summary of a long run', () => {
  it('gives min, avg and max over 300 000 replies (once passed to Math.min as arguments, past what a call takes)', async () => {
    const { summarize } = await import('../src/commands/ping.ts');
    const replies = Array.from({ length: 300_000 }, (_, seq) => ({ seq, rttMs: 1 + ((seq * 7919) % 1000) / 10 }));
    const s = summarize({ sent: 300_001, received: 300_000, replies });
    expect(s.rttMs).toMatchObject({ min: 1, max: 100.9 });
    expect(s.rttMs!.avg).toBeCloseTo(50.95, 5);
    expect(s.lossPercent).toBe(0);
  });
});
