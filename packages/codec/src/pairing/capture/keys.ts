/**
 * The capture pairer's keys: each protocol's declared pairing key (grammar/protocol.ts)
 * compiled into numbers, from the payload and the endpoints as numbers (no string, no
 * object per datagram). A key is the conversation — client and server address and port —
 * and what the reply echoes of its request:
 *
 *   echo      the bytes `from`–`to` (or `longer.to`, for the messages it lists)
 *   session   the type byte and the session id, at the request's and the reply's offsets
 *
 * hashed into two 32-bit halves by two Murmur3 lanes with seeds drawn per process (so a
 * crafted capture cannot aim its keys at one bucket). The table (table.ts) takes two keys
 * whose halves both agree for one.
 */
import { echoEnd as echoEndOf, selectorOf, type PairingKey, type ProtocolDeclaration } from '../../grammar/protocol.ts';

/** A datagram's endpoints as numbers: IPv4 in word 0, IPv6 in words 0–3 (big-endian words). */
export class Endpoints {
  v6 = false;
  readonly src = new Uint32Array(4);
  readonly dst = new Uint32Array(4);
  srcPort = 0;
  dstPort = 0;

  /** Reads the addresses at `srcAt` and `dstAt` of `bytes` (4 or 16 bytes each) and the ports. */
  read(bytes: Uint8Array, v6: boolean, srcAt: number, dstAt: number, srcPort: number, dstPort: number): void {
    this.v6 = v6;
    const words = v6 ? 4 : 1;
    for (let i = 0; i < words; i++) {
      const s = srcAt + 4 * i,
        d = dstAt + 4 * i;
      this.src[i] = ((bytes[s]! << 24) | (bytes[s + 1]! << 16) | (bytes[s + 2]! << 8) | bytes[s + 3]!) >>> 0;
      this.dst[i] = ((bytes[d]! << 24) | (bytes[d + 1]! << 16) | (bytes[d + 2]! << 8) | bytes[d + 3]!) >>> 0;
    }
    this.srcPort = srcPort;
    this.dstPort = dstPort;
  }

  /** No addresses (a hex dump of a payload): all zero, as 0.0.0.0:0 both ways. */
  none(): void {
    this.v6 = false;
    this.src.fill(0);
    this.dst.fill(0);
    this.srcPort = this.dstPort = 0;
  }
}

const SEED_LO = (Math.random() * 0x100000000) | 0;
const SEED_HI = (Math.random() * 0x100000000) | 0;

/** The key just computed: its two halves. */
export const key = { lo: 0, hi: 0 };

let lo = 0;
let hi = 0;

const mix = (x: number): void => {
  let k = Math.imul(x, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  lo ^= k;
  lo = (lo << 13) | (lo >>> 19);
  lo = (Math.imul(lo, 5) + 0xe6546b64) | 0;
  let j = Math.imul(x ^ 0x5bd1e995, 0x85ebca6b);
  j = (j << 17) | (j >>> 15);
  j = Math.imul(j, 0xc2b2ae35);
  hi ^= j;
  hi = (hi << 11) | (hi >>> 21);
  hi = (Math.imul(hi, 9) + 0x52dce729) | 0;
};

const fmix = (h: number): number => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

const begin = (tag: number): void => {
  lo = SEED_LO ^ tag;
  hi = SEED_HI ^ Math.imul(tag, 0x9e3779b1);
};

const end = (): void => {
  key.lo = fmix(lo);
  key.hi = fmix(hi);
};

const endpoint = (v6: boolean, address: Uint32Array, port: number): void => {
  if (v6) {
    mix(6);
    mix(address[0]!);
    mix(address[1]!);
    mix(address[2]!);
    mix(address[3]!);
  } else {
    mix(4);
    mix(address[0]!);
  }
  mix(port);
};

/** Bytes `from` to `to` of `b` (cut at its end), four to a word, then how many there were. */
const range = (b: Uint8Array, from: number, to: number): void => {
  const stop = Math.min(to, b.length);
  let i = from;
  for (; i + 4 <= stop; i += 4) mix((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
  let w = 0;
  for (; i < stop; i++) w = (w << 8) | b[i]!;
  mix(w);
  mix(Math.max(0, stop - from));
};

/** A view of the buffer last hashed, to read its words whole (one load where four bytes took four). */
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

/**
 * A hash of all of `b`, both halves into {@link key}: what copies of a reply, and twins of a
 * request, are told by. Every datagram that pairs is hashed whole (a 100-player list is
 * 2.5 KB), so a lighter mix than the keys': a multiply per word (each step is invertible, so
 * inputs that differ in one word always differ), finished as the keys are.
 *
 * Sixteen bytes at a time go into four lanes, a word each, whose multiplies do not wait on
 * one another (one lane that took every word was a chain of dependent multiplies: 0.78 ns a
 * byte, four take 0.33); the lanes are then folded into both halves, each in its own order,
 * and what is left over goes into both a word at a time.
 */
export function hashBytes(b: Uint8Array): void {
  const n = b.length;
  let x = SEED_LO ^ n;
  let y = SEED_HI ^ Math.imul(n, 0x9e3779b1);
  let i = 0;
  if (n >= 16) {
    if (view.buffer !== b.buffer) view = new DataView(b.buffer);
    const o = b.byteOffset;
    let p = x,
      q = y,
      r = ~x,
      s = ~y;
    for (; i + 16 <= n; i += 16) {
      p = Math.imul(p ^ view.getInt32(o + i, true), 0x01000193);
      q = Math.imul(q ^ view.getInt32(o + i + 4, true), 0x5bd1e995);
      r = Math.imul(r ^ view.getInt32(o + i + 8, true), 0x01000193);
      s = Math.imul(s ^ view.getInt32(o + i + 12, true), 0x5bd1e995);
    }
    x = Math.imul(Math.imul(Math.imul(p ^ q, 0x01000193) ^ r, 0x01000193) ^ s, 0x01000193);
    y = Math.imul(Math.imul(Math.imul(s ^ r, 0x5bd1e995) ^ q, 0x5bd1e995) ^ p, 0x5bd1e995);
  }
  for (; i + 4 <= n; i += 4) {
    const w = b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
    x = Math.imul(x ^ w, 0x01000193);
    y = Math.imul(y ^ w, 0x5bd1e995);
  }
  for (; i < n; i++) {
    x = Math.imul(x ^ b[i]!, 0x01000193);
    y = Math.imul(y ^ b[i]!, 0x5bd1e995);
  }
  key.lo = fmix(x);
  key.hi = fmix(y ^ (x >>> 7));
}

/** Which end of a datagram is the client: the sender of a request, the receiver of a reply. */
export const enum Side {
  Request = 0,
  Reply = 1,
}

/** A protocol's pairing key, compiled. */
export interface KeyRule {
  readonly tag: number;
  readonly kind: 'echo' | 'session';
  /** Keys a request is filed under and a reply looked up by (into {@link key}). */
  key(b: Uint8Array, e: Endpoints, side: Side): void;
  /**
   * The keys a near miss is looked for under (a reply from another address, a reply of
   * another type), `i` from 0 while it returns true.
   */
  near(b: Uint8Array, e: Endpoints, i: number): boolean;
  /** A session-kind request's key with another session id (the one its token's handshake had). */
  withSession(b: Uint8Array, e: Endpoints, session: number): void;
  /** A request's session id (up to four bytes, as one number); 0 for the echo kind. */
  session(b: Uint8Array, side: Side): number;
}

/** The conversation: client, then server. */
const conversation = (e: Endpoints, side: Side): void => {
  if (side === Side.Request) {
    endpoint(e.v6, e.src, e.srcPort);
    endpoint(e.v6, e.dst, e.dstPort);
  } else {
    endpoint(e.v6, e.dst, e.dstPort);
    endpoint(e.v6, e.src, e.srcPort);
  }
};

const echoed = new Uint32Array(1);

function echoRule(tag: number, k: Extract<PairingKey, { kind: 'echo' }>, littleEndian: boolean): KeyRule {
  const FROM = k.from;
  const echoEnd = echoEndOf(k);
  const server = k.server;
  return {
    tag,
    kind: 'echo',
    key(b, e, side) {
      begin(tag);
      conversation(e, side);
      range(b, FROM, echoEnd(b));
      end();
    },
    near(b, e, i) {
      // A reply from another address than the one its echo names: the key its request was filed under.
      if (i > 0 || !server || b.length < server.port + 2 || e.v6) return false;
      const a = server.address,
        p = server.port;
      echoed[0] = ((b[a]! << 24) | (b[a + 1]! << 16) | (b[a + 2]! << 8) | b[a + 3]!) >>> 0;
      const port = littleEndian ? b[p]! | (b[p + 1]! << 8) : (b[p]! << 8) | b[p + 1]!;
      if (echoed[0] === e.src[0] && port === e.srcPort) return false;
      begin(tag);
      endpoint(false, e.dst, e.dstPort);
      endpoint(false, echoed, port);
      range(b, FROM, echoEnd(b));
      end();
      return true;
    },
    withSession() {
      throw new Error('an echo key has no session');
    },
    session: () => 0,
  };
}

function sessionRule(tag: number, k: Extract<PairingKey, { kind: 'session' }>, types: readonly number[]): KeyRule {
  const at = [k.request, k.response] as const;
  for (const s of at) {
    if (s.session[1] - s.session[0] > 4) throw new Error('a session id of more than four bytes is not supported');
  }
  const session = (b: Uint8Array, side: Side): number => {
    const [from, to] = at[side].session;
    let v = 0;
    for (let i = from; i < to && i < b.length; i++) v = (v << 8) | b[i]!;
    return v >>> 0;
  };
  const length = (b: Uint8Array, side: Side): number => {
    const [from, to] = at[side].session;
    return Math.max(0, Math.min(to, b.length) - from);
  };
  const finish = (type: number, s: number, n: number): void => {
    mix(type);
    mix(s);
    mix(n);
    end();
  };
  return {
    tag,
    kind: 'session',
    key(b, e, side) {
      begin(tag);
      conversation(e, side);
      finish(b[at[side].type] ?? -1, session(b, side), length(b, side));
    },
    near(b, e, i) {
      // A reply of another type than its request's: the keys of the protocol's other types.
      const own = b[at[Side.Reply].type] ?? -1;
      let other = -1;
      for (let t = 0, n = 0; t < types.length; t++) {
        if (types[t] !== own && n++ === i) other = types[t]!;
      }
      if (other < 0) return false;
      begin(tag);
      conversation(e, Side.Reply);
      finish(other, session(b, Side.Reply), length(b, Side.Reply));
      return true;
    },
    withSession(b, e, s) {
      begin(tag);
      conversation(e, Side.Request);
      finish(b[at[Side.Request].type] ?? -1, s, at[Side.Request].session[1] - at[Side.Request].session[0]);
    },
    session,
  };
}

/** The compiled key of a protocol with a pairing key; `tag` tells its keys from other protocols'. */
export function keyRule(p: ProtocolDeclaration, tag: number): KeyRule | undefined {
  const k = p.pairing;
  if (!k) return undefined;
  if (k.kind === 'echo') return echoRule(tag, k, p.endian === 'le');
  // The type values of its replies (a near miss is a reply of another type than its request's).
  const types = [...new Set(Object.values(p.messages).map((m) => selectorOf(m.response)))];
  return sessionRule(tag, k, types);
}

/** The key a handshake's token is kept under: the conversation (client, server) and the token. */
export function tokenKey(e: Endpoints, side: Side, token: number): void {
  begin(0x70);
  conversation(e, side);
  mix(token);
  end();
}
