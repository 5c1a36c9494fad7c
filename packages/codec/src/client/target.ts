/**
 * Server addresses as people write them: `HOST`, `HOST:PORT`, `[IPv6]:PORT`, or a bare
 * IPv6 address (no port). IPv6 addresses are kept without brackets, in the canonical
 * form the socket layer reports them in (RFC 5952: `::1`, not `0:0:0:0:0:0:0:1`).
 */
import { isIP } from 'node:net';
import { mcqueryProtocol, sampProtocol, vcmpProtocol } from '../protocols/index.ts';
import { hostPort } from '../grammar/display.ts';

/** A server address as {@link parseServer} reads it: host and port. */
export interface ServerAddress {
  /** Host name or IP address, IPv6 without brackets. */
  readonly host: string;
  readonly port: number;
}

/** Default ports: the SA:MP and VC:MP game ports, and Minecraft's `query.port` (= `server-port`), as each protocol declares it. */
export const defaultPorts: {
  readonly samp: typeof sampProtocol.defaultPort;
  readonly vcmp: typeof vcmpProtocol.defaultPort;
  readonly mcquery: typeof mcqueryProtocol.defaultPort;
} = { samp: sampProtocol.defaultPort, vcmp: vcmpProtocol.defaultPort, mcquery: mcqueryProtocol.defaultPort };

/** A server address that cannot be read. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
  constructor(
    readonly text: string,
    reason: string,
  ) {
    super(`${JSON.stringify(text)}: ${reason}`);
  }
}

function portOf(text: string, digits: string): number {
  const port = /^\d{1,5}$/.test(digits) ? Number(digits) : NaN;
  if (!(port >= 1 && port <= 0xffff)) throw new TargetError(text, `the port must be a number in 1..65535, got ${JSON.stringify(digits)}`);
  return port;
}

/** Reads `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT` or a bare IPv6 address. */
export function parseServer(text: string, defaultPort: number): ServerAddress {
  const t = text.trim();
  if (t === '') throw new TargetError(text, 'empty server address');
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(t);
  if (bracketed) {
    const host = bracketed[1]!;
    if (isIP(host) !== 6) throw new TargetError(text, 'brackets hold an IPv6 address');
    return { host: canonicalAddress(host), port: bracketed[2] === undefined ? defaultPort : portOf(text, bracketed[2]) };
  }
  const colons = t.split(':').length - 1;
  if (colons > 1) {
    if (isIP(t) !== 6) throw new TargetError(text, 'not an IPv6 address (write an IPv6 address with a port as [::1]:7777)');
    return { host: canonicalAddress(t), port: defaultPort };
  }
  const [host, port] = colons === 1 ? (t.split(':') as [string, string]) : [t, undefined];
  if (host === '') throw new TargetError(text, 'no host before the port');
  if (/\s/.test(host)) throw new TargetError(text, 'a host name has no spaces');
  return { host, port: port === undefined ? defaultPort : portOf(text, port) };
}

/** `127.0.0.1:7777`, `[::1]:7777`, `example.com:25565`. */
export const showServer: (host: string, port: number) => string = hostPort;

/** An IP address in the form `dgram` reports sources in; anything else unchanged. */
export function canonicalAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase(); // a zone index (fe80::1%eth0) is not URL syntax
  }
}
