/**
 * Abuse limits: the emulator must not be usable as a reflection amplifier.
 *
 * SA:MP and VC:MP queries have no handshake, so a reply goes to whatever source address
 * the request claims: an attacker who spoofs a victim's address makes the server send
 * the victim far more bytes than the attacker sent. Reply bytes per request byte
 * (h, g, l: string lengths after the caps; N entries, name length n; factors measured
 * with the responders, "full" = 100 players with 24-byte names, strings at the caps):
 *
 * | reply | request | reply bytes | factor |
 * |---|---|---|---|
 * | SA:MP `p`, VC:MP `p` | 15 | 15 | 1 |
 * | SA:MP `i` | 11 | 28 + h + g + l | 4.6–5.6 stock; 12.5 (0.3.7, 138 B) and 15.4 (open.mp, 169 B) at the caps |
 * | SA:MP `r` | 11 | 13 + Σ(2 + k + v) | 9.9 (stock 0.3.7 rules, 109 B), 12.3 (stock open.mp, 135 B); no cap but the rule count |
 * | SA:MP `c` | 11 | 13 + Σ(5 + n) | 1.2 empty; 264.8 full (2913 B) |
 * | SA-MP 0.3.7 `d` | 11 | 13 + Σ(10 + n) | 1.2 empty; 310.3 full (3413 B) |
 * | open.mp `o` | 11 | 27 + a + b + c + e | 2.5 empty; 50.6 at the caps (557 B) |
 * | SA:MP `x` | 15 + p + m | Σ over lines (13 + t) | 2.3 for a wrong password (35 B to a 15-byte request); a command: whatever it prints |
 * | VC:MP `i` | 11 | 40 + n + g + m | 6.2 with the default strings; no caps known |
 * | VC:MP `c` | 11 | 13 + Σ(1 + n) | 1.2 empty; 228.5 full (2513 B) |
 * | Minecraft handshake | 7 | 6 + token digits ≤ 14 | ≤ 2.0 |
 * | Minecraft basic / full stat | 11 / 15 | ≈ 45 / ≈ 175 + Σ(1 + n) | 4.6 / 12.7 for examples/servers.json, but only after a handshake from that address and port |
 *
 * Minecraft's challenge token makes its stat replies unreachable for a spoofer (the
 * token goes to the spoofed address), leaving the 2× handshake. SA:MP's list replies
 * are the worst: one 11-byte `d` request can bring back 3.4 KB.
 *
 * Two limits per source address (IP, whatever the port; shared by all servers of one
 * emulator), both token buckets:
 *  - requests per second: a request beyond it is dropped before it is looked at;
 *  - reply bytes per second: a reply datagram that does not fit the remaining byte
 *    budget is dropped (RCON replies are judged line by line).
 * Drops are counted, and other sources keep being answered: each source has its own
 * buckets. Buckets of idle sources are forgotten; at most `maxSources` are kept.
 * With the defaults a spoofed victim receives at most 64 KiB/s (after a 64 KiB burst)
 * from one emulator, however many of its servers are targeted: 50 `d` requests a
 * second (550 B) would otherwise bring back 170 KB.
 */

export interface AbuseLimits {
  /** Sustained requests per second per source address. Default 50. */
  readonly requestsPerSecond: number;
  /** Requests a source may send at once before the rate applies. Default 50. */
  readonly requestBurst: number;
  /** Sustained reply bytes per second per source address. Default 65 536. */
  readonly bytesPerSecond: number;
  /** Reply bytes a source may receive at once. Default 65 536. */
  readonly byteBurst: number;
  /** Source addresses tracked at once; the least recently seen are forgotten first. Default 10 000. */
  readonly maxSources: number;
}

/** The limits an emulator applies unless told otherwise: 50 requests/s and 64 KiB/s per source address, 10 000 sources tracked. */
export const defaultLimits: AbuseLimits = {
  requestsPerSecond: 50,
  requestBurst: 50,
  bytesPerSecond: 64 * 1024,
  byteBurst: 64 * 1024,
  maxSources: 10_000,
};

interface Buckets {
  requests: number;
  bytes: number;
  /** Last refill, in ms of the clock. */
  at: number;
}

/** The per-source token buckets. `now` is a millisecond clock (injectable for tests). */
export class SourceLimiter {
  readonly limits: AbuseLimits;
  readonly #now: () => number;
  readonly #sources = new Map<string, Buckets>();

  constructor(limits: Partial<AbuseLimits> = {}, now: () => number = () => performance.now()) {
    this.limits = checkLimits({ ...defaultLimits, ...limits });
    this.#now = now;
  }

  /** Source addresses currently tracked. */
  get size(): number {
    return this.#sources.size;
  }

  /** Takes one request token; false means drop the request. */
  admitRequest(source: string): boolean {
    const b = this.#refill(source);
    if (b.requests < 1) return false;
    b.requests -= 1;
    return true;
  }

  /** Takes `length` byte tokens; false means drop the reply. */
  admitReply(source: string, length: number): boolean {
    const b = this.#refill(source);
    if (b.bytes < length) return false;
    b.bytes -= length;
    return true;
  }

  #refill(source: string): Buckets {
    const now = this.#now();
    const l = this.limits;
    let b = this.#sources.get(source);
    if (b) {
      // Re-insert so that Map order is least recently seen first.
      this.#sources.delete(source);
      const seconds = Math.max(0, now - b.at) / 1000;
      b.requests = Math.min(l.requestBurst, b.requests + seconds * l.requestsPerSecond);
      b.bytes = Math.min(l.byteBurst, b.bytes + seconds * l.bytesPerSecond);
      b.at = now;
    } else {
      if (this.#sources.size >= l.maxSources) this.#evict(now);
      b = { requests: l.requestBurst, bytes: l.byteBurst, at: now };
    }
    this.#sources.set(source, b);
    return b;
  }

  /**
   * Forgets sources whose buckets would be full again (a fresh bucket is the same), then, if
   * that made no room, the least recently seen: a sixteenth of the most kept at once, so that
   * a flood of new (spoofed) sources costs a pass over the map every few hundred of them, not
   * one for each (100 µs a request at 10 000 sources).
   */
  #evict(now: number): void {
    const l = this.limits;
    for (const [source, b] of this.#sources) {
      const seconds = (now - b.at) / 1000;
      if (b.requests + seconds * l.requestsPerSecond >= l.requestBurst && b.bytes + seconds * l.bytesPerSecond >= l.byteBurst) {
        this.#sources.delete(source);
      }
    }
    let batch = Math.ceil(l.maxSources / 16);
    for (const source of this.#sources.keys()) {
      if (this.#sources.size < l.maxSources && batch <= 0) break;
      this.#sources.delete(source);
      batch--;
    }
  }
}

function checkLimits(l: AbuseLimits): AbuseLimits {
  for (const [key, v] of Object.entries(l)) {
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v))
      throw new RangeError(`limits.${key}: expected a positive number, got ${String(v)}`);
  }
  if (l.requestBurst < 1) throw new RangeError('limits.requestBurst: at least 1 request must fit');
  return l;
}
