/**
 * A loopback UDP client for the emulator tests: every wait is bounded, and every
 * socket is closed by the test that opened it.
 */
import { createSocket, type Socket } from 'node:dgram';
import { startEmulator, type Emulator, type EmulatorConfig, type EmulatedServer } from '@gamequery/codec/node';

export interface QueryOptions {
  /** How long to wait for a first reply; silence resolves [] after it. Default 500 ms. */
  readonly timeoutMs?: number;
  /** After a reply, how long to wait for more (RCON sends one datagram per line). Default 60 ms. */
  readonly quietMs?: number;
}

export interface Target {
  readonly address: string;
  readonly port: number;
}

export interface Client {
  readonly port: number;
  /** Sends `bytes` to `target`; resolves with the datagrams `target` sent back, or [] after the wait. */
  query(bytes: Uint8Array, target: Target, options?: QueryOptions): Promise<Uint8Array[]>;
  /** Sends without waiting. */
  send(bytes: Uint8Array, target: Target): Promise<void>;
  /** Datagrams received from `target` since the last call (or `query`). */
  drain(target: Target): Uint8Array[];
  close(): Promise<void>;
}

/** A client socket on a loopback address (127.0.0.1, or another of 127/8, or ::1), ephemeral port. */
export async function client(address = '127.0.0.1'): Promise<Client> {
  const socket: Socket = createSocket(address.includes(':') ? { type: 'udp6', ipv6Only: true } : { type: 'udp4' });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ address, port: 0 }, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  let inbox: Array<{ from: Target; bytes: Uint8Array }> = [];
  let notify: (() => void) | undefined;
  socket.on('message', (msg, rinfo) => {
    inbox.push({ from: { address: rinfo.address, port: rinfo.port }, bytes: new Uint8Array(msg) });
    notify?.();
  });
  const same = (a: Target, b: Target): boolean => a.address === b.address && a.port === b.port;
  const send = (bytes: Uint8Array, target: Target): Promise<void> =>
    new Promise((resolve, reject) => socket.send(bytes, target.port, target.address, (e) => (e ? reject(e) : resolve())));
  const drain = (target: Target): Uint8Array[] => {
    const mine = inbox.filter((m) => same(m.from, target)).map((m) => m.bytes);
    inbox = inbox.filter((m) => !same(m.from, target));
    return mine;
  };

  return {
    port: socket.address().port,
    send,
    drain,
    async query(bytes, target, options = {}) {
      const timeoutMs = options.timeoutMs ?? 500;
      const quietMs = options.quietMs ?? 60;
      drain(target);
      await send(bytes, target);
      await new Promise<void>((resolve) => {
        let timer = setTimeout(done, timeoutMs);
        function done(): void {
          notify = undefined;
          resolve();
        }
        notify = () => {
          if (!inbox.some((m) => same(m.from, target))) return;
          clearTimeout(timer);
          timer = setTimeout(done, quietMs);
        };
        notify();
      });
      return drain(target);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Starts an emulator and a client; `done()` closes both. */
export async function setup(
  config: EmulatorConfig,
  clientAddress = '127.0.0.1',
): Promise<{ emulator: Emulator; client: Client; server: (i?: number) => EmulatedServer; done: () => Promise<void> }> {
  const emulator = await startEmulator(config);
  const c = await client(clientAddress);
  return {
    emulator,
    client: c,
    server: (i = 0) => emulator.servers[i]!,
    done: async () => {
      await c.close();
      await emulator.close();
    },
  };
}

export const concat = (...parts: Array<Uint8Array | readonly number[]>): Uint8Array => {
  const all = parts.flatMap((p) => [...p]);
  return Uint8Array.from(all);
};

export const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** `n` bytes of padding. */
export const pad = (n: number, byte = 0): Uint8Array => new Uint8Array(n).fill(byte);
