/**
 * A live capture (`gamequery dissect -i IFACE`), taken as tshark takes one: an installed
 * capture program runs as a child process and writes the capture to its stdout as it goes,
 * read here as the chunks of a capture read once. No native addon: dumpcap (Wireshark's, the
 * program tshark runs) when it is on PATH, else tcpdump.
 *
 * Until the capture's first bytes come, the program's stderr tells a failure apart (no such
 * interface, no permission to capture, a capture filter it cannot compile); when it stops, its
 * closing counts (captured, dropped). The child never outlives the caller: stopping it asks
 * (SIGINT, as Ctrl-C), then kills; so does the caller's exit.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { escapeControls } from '@gamequery/codec/internal';
import { sniffInput } from '../capture/sniff.ts';

/** A capture program: how it is told to write one interface's capture to stdout, and how it states its counts. */
interface CaptureProgram {
  readonly name: 'dumpcap' | 'tcpdump';
  readonly args: (iface: string, filter: string | undefined) => string[];
  /** In its closing lines on stderr: packets captured, and packets dropped. */
  readonly captured: RegExp;
  readonly dropped: RegExp;
  /** Its lines on stderr that say nothing went wrong (what it captures on, where it writes). */
  readonly chatter: RegExp;
  /**
   * How long after being asked to stop it is signalled, in ms: long enough for it to hand over what
   * the kernel has captured (a packet it has not read yet when signalled is lost).
   */
  readonly settleMs: number;
}

/** The capture programs, in the order they are looked for on PATH. */
const PROGRAMS: readonly CaptureProgram[] = [
  {
    name: 'dumpcap',
    // -w -: the capture (pcapng) on stdout; -q: no running count on stderr (the closing counts stay).
    args: (iface, filter) => ['-i', iface, '-q', '-w', '-', ...(filter === undefined ? [] : ['-f', filter])],
    captured: /^Packets captured: (\d+)/m,
    dropped: /^Packets received\/dropped on interface .*: \d+\/(\d+)/m,
    chatter: /^(Capturing on |File: )/,
    // It reads the kernel's buffer in blocks, each handed over when full or after its read timeout (250 ms).
    settleMs: 400,
  },
  {
    name: 'tcpdump',
    // -U: each packet written as it comes (not when a buffer fills); --immediate-mode: handed over by the
    // kernel at once (not each second); `--`: a filter that starts with '-' is not taken for an option.
    args: (iface, filter) => ['-i', iface, '-U', '--immediate-mode', '-w', '-', ...(filter === undefined ? [] : ['--', filter])],
    captured: /^(\d+) packets? captured/m,
    dropped: /^(\d+) packets? dropped by kernel/m,
    chatter: /^tcpdump: listening on /,
    // Immediate mode: each packet is read as it comes.
    settleMs: 0,
  },
];

/** Why a live capture could not begin. */
export type LiveCaptureErrorCode =
  /** Neither dumpcap nor tcpdump is on PATH. */
  | 'no-program'
  /** The program may not capture (not root, no capabilities). */
  | 'no-permission'
  /** The program knows no such interface. */
  | 'no-interface'
  /** The program could not compile the capture filter. */
  | 'bad-filter'
  /** Anything else: the program failed, wrote something else, or wrote nothing in time. */
  | 'failed';

/** Why a live capture could not begin; the message, one line, says what to do about it. */
export class LiveCaptureError extends Error {
  override readonly name = 'LiveCaptureError';
  readonly info: {
    readonly code: LiveCaptureErrorCode;
    readonly iface: string;
    /** The program's path, once one was found. */
    readonly program?: string;
    /** The program's own words, from its stderr. */
    readonly detail?: string;
  };
  constructor(code: LiveCaptureErrorCode, message: string, info: { iface: string; program?: string; detail?: string }) {
    super(message);
    this.info = { code, ...info };
  }
}

/** What to capture: an interface, a capture filter, and a signal that stops the capture. */
export interface LiveCaptureOptions {
  /** The interface, as the program names it (`lo`, `eth0`). */
  readonly iface: string;
  /** A capture filter in libpcap's syntax (`udp port 7777`), applied by the program; empty: none. */
  readonly filter?: string;
  /** Where to look for the programs; default this process's PATH. */
  readonly path?: string;
  /** Stops the capture as {@link LiveCapture.stop} does; before the capture began, the promise rejects with its reason. */
  readonly signal?: AbortSignal;
  /** How long the program may take to write the capture's first bytes, in ms (default 10 000); then it is stopped. */
  readonly startTimeoutMs?: number;
}

/** How a live capture ended. */
export interface LiveCaptureEnd {
  /** It was asked to (stop(), the signal, or the reader stopped reading); false: the program ended by itself. */
  readonly stopped: boolean;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Packets the program says it captured and dropped, from its closing lines (when it wrote them). */
  readonly captured?: number;
  readonly dropped?: number;
  /** When it ended by itself: why, in the program's words (escaped to one line). */
  readonly reason?: string;
}

/** A capture being taken: the input shape of `openInput`'s captures read once, and its program. */
export interface LiveCapture {
  readonly kind: 'capture';
  readonly format: 'pcap' | 'pcapng';
  readonly gzip: false;
  readonly live: true;
  /** The capture's bytes as the program writes them; they end when it stops. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** The program's path and arguments. */
  readonly program: string;
  readonly args: readonly string[];
  /**
   * Asks the program to stop: SIGINT once it has handed over what it captured (dumpcap: 400 ms later),
   * SIGKILL 3 s after that; what it wrote still comes, then the chunks end.
   */
  stop(): void;
  /** Settles once the program has exited. */
  readonly ended: Promise<LiveCaptureEnd>;
}

/** How long a program asked to stop may take before it is killed. */
const STOP_GRACE_MS = 3000;
/** The program's stderr kept, at most, its last (its messages are a few lines, its counts the last). */
const STDERR_BYTES = 1 << 16;

/** The first capture program on `path`, and where it is. */
function findProgram(path: string): { program: CaptureProgram; file: string } | undefined {
  for (const program of PROGRAMS) {
    for (const dir of path.split(delimiter)) {
      if (dir === '') continue;
      const file = join(dir, program.name);
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return { program, file };
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

/** An interface a capture can be taken on, as `tshark -D` lists it: its number, its name (what `-i` takes) and what it is. */
export interface CaptureInterface {
  readonly number: number;
  readonly name: string;
  readonly description?: string;
}

/** A line of `dumpcap -D` (`3. lo (Loopback)`) or `tcpdump -D` (`3.lo [Up, Running, Loopback]`, a description in parentheses before the flags). */
const INTERFACE_LINE = /^(\d+)\. ?(\S+)(?: \((.*?)\))?(?: \[[^\]]*\])?$/;

/**
 * The interfaces the first capture program on PATH can capture on, as its `-D` lists them
 * (`gamequery dissect -D`, as tshark's `-D`). Throws a {@link LiveCaptureError}: no program
 * (`no-program`), or it failed (`failed`, in its words).
 */
export function listInterfaces(path: string = process.env['PATH'] ?? ''): {
  readonly program: string;
  readonly interfaces: CaptureInterface[];
} {
  const found = findProgram(path);
  if (found === undefined)
    throw new LiveCaptureError(
      'no-program',
      'listing the interfaces needs dumpcap or tcpdump, and neither is on PATH: install one (apt-get install tshark, which brings dumpcap, or apt-get install tcpdump)',
      { iface: '' },
    );
  const r = spawnSync(found.file, ['-D'], { encoding: 'utf8', timeout: 10_000 });
  const interfaces: CaptureInterface[] = [];
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = INTERFACE_LINE.exec(line.trimEnd());
    if (m) interfaces.push({ number: Number(m[1]), name: m[2]!, ...(m[3] ? { description: m[3] } : {}) });
  }
  if (r.status !== 0 || !interfaces.length) {
    const said = escapeControls((r.stderr ?? '').split('\n').find((l) => l.trim() !== '' && !/^Running as user/.test(l)) ?? '');
    const how = r.error ? r.error.message : r.status === null ? `was ended by ${r.signal}` : `exited with code ${r.status}`;
    throw new LiveCaptureError('failed', `${found.file} -D ${interfaces.length ? how : 'listed no interface'}${said ? `: ${said}` : ''}`, {
      iface: '',
      program: found.file,
    });
  }
  return { program: found.file, interfaces };
}

/** The child process: its stderr, its exit, stopping it, and killing it if this process exits first. */
class Child {
  stderr = '';
  /** Asked to stop (not: ended by itself). */
  stopped = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
  #settle: ReturnType<typeof setTimeout> | undefined;
  #grace: ReturnType<typeof setTimeout> | undefined;
  readonly #kill = (): void => void this.spawned.kill('SIGKILL');

  constructor(readonly spawned: ChildProcess) {
    spawned.stderr!.setEncoding('utf8');
    spawned.stderr!.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_BYTES);
    });
    process.once('exit', this.#kill);
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null, error?: Error): void => {
        clearTimeout(this.#settle);
        clearTimeout(this.#grace);
        process.off('exit', this.#kill);
        resolve({ code, signal, ...(error ? { error } : {}) });
      };
      spawned.once('error', (e) => done(null, null, e));
      spawned.once('close', (code, signal) => done(code, signal));
    });
  }

  get #running(): boolean {
    return this.spawned.exitCode === null && this.spawned.signalCode === null;
  }

  /** Asks it to stop as Ctrl-C does, `settleMs` from now (a later call without brings it forward); killed if it has not exited after a grace period. */
  stop(settleMs = 0): void {
    if (this.stopped && (this.#settle === undefined || settleMs > 0)) return;
    this.stopped = true;
    clearTimeout(this.#settle);
    this.#settle = undefined;
    if (settleMs > 0) this.#settle = setTimeout(() => this.#interrupt(), settleMs);
    else this.#interrupt();
  }

  #interrupt(): void {
    this.#settle = undefined;
    if (!this.#running) return;
    this.spawned.kill('SIGINT');
    this.reap();
  }

  /** Its capture has ended: killed if it has not exited after a grace period. */
  reap(): void {
    if (this.#grace === undefined && this.#running) this.#grace = setTimeout(this.#kill, STOP_GRACE_MS);
  }

  /** Lines of its stderr that are neither chatter nor counts, escaped. */
  words(program: CaptureProgram): string[] {
    return this.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !program.chatter.test(l) && !program.captured.test(l) && !program.dropped.test(l))
      .map((l) => escapeControls(l));
  }
}

/** The error for a program that ended before the capture began, told apart by what it said. */
function failure(
  program: CaptureProgram,
  file: string,
  iface: string,
  filter: string | undefined,
  child: Child,
  exit: Awaited<Child['exited']>,
): LiveCaptureError {
  const said = child.words(program);
  const text = said.join('\n');
  const detail = said.find((l) => l.startsWith(`${program.name}:`)) ?? said[0];
  const info = { iface, program: file, ...(detail !== undefined ? { detail } : {}) };
  const name = escapeControls(iface);
  if (/permission|not permitted/i.test(text))
    return new LiveCaptureError(
      'no-permission',
      `${program.name} may not capture on ${name}: run as root, or give it the capabilities (setcap cap_net_raw,cap_net_admin=eip ${file})${
        program.name === 'dumpcap' ? ', or add your user to the wireshark group (Debian: dpkg-reconfigure wireshark-common first)' : ''
      }`,
      info,
    );
  if (/no such device|no device named|doesn't exist|no such interface/i.test(text))
    return new LiveCaptureError('no-interface', `${name}: no such interface (${program.name} -D lists them)`, info);
  if (filter !== undefined && /capture filter|filter expression/i.test(text))
    return new LiveCaptureError(
      'bad-filter',
      `-f '${escapeControls(filter)}': not a capture filter (libpcap syntax, man pcap-filter)${detail ? `: ${detail}` : ''}`,
      info,
    );
  const how = exit.error
    ? `could not be run (${(exit.error as NodeJS.ErrnoException).code ?? exit.error.message})`
    : exit.signal
      ? `was ended by ${exit.signal} before capturing`
      : `exited with code ${exit.code} before capturing`;
  return new LiveCaptureError('failed', `${file} -i ${name} ${how}${detail ? `: ${detail}` : ''}`, info);
}

/**
 * Starts capturing on `options.iface` with the first capture program on PATH, and resolves once
 * the capture's first bytes have come (the interface is open and the filter set); rejects with a
 * {@link LiveCaptureError} when no program is found or it fails before that.
 */
export async function openLiveCapture(options: LiveCaptureOptions): Promise<LiveCapture> {
  const { iface, signal } = options;
  const filter = options.filter || undefined;
  const found = findProgram(options.path ?? process.env['PATH'] ?? '');
  if (found === undefined)
    throw new LiveCaptureError(
      'no-program',
      'a live capture needs dumpcap or tcpdump, and neither is on PATH: install one (apt-get install tshark, which brings dumpcap, or apt-get install tcpdump)',
      { iface },
    );
  const { program, file } = found;
  signal?.throwIfAborted();
  const args = program.args(iface, filter);
  // Its own process group: a terminal's Ctrl-C reaches this process alone, which stops the program
  // itself, so that a program that ends is known to have ended by itself or when asked.
  const child = new Child(spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
  const stop = (): void => child.stop(program.settleMs);
  signal?.addEventListener('abort', stop, { once: true });
  const reader = child.spawned.stdout![Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;

  // The first bytes: the file header, written once the interface is open and the filter set.
  const head: Uint8Array[] = [];
  let length = 0;
  const startMs = options.startTimeoutMs ?? 10_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), startMs)));
  try {
    while (length < 4) {
      const next = reader.next();
      next.catch(() => undefined);
      const r = await Promise.race([next, late]);
      if (r === 'late') {
        child.stop();
        await child.exited;
        throw new LiveCaptureError('failed', `${file} -i ${escapeControls(iface)} wrote no capture in ${startMs / 1000} s: stopped it`, {
          iface,
          program: file,
        });
      }
      if (r.done) {
        const exit = await child.exited;
        signal?.throwIfAborted();
        throw failure(program, file, iface, filter, child, exit);
      }
      head.push(r.value);
      length += r.value.length;
    }
  } catch (e) {
    signal?.removeEventListener('abort', stop);
    child.stop();
    throw e;
  } finally {
    clearTimeout(timer);
  }

  const first = Buffer.concat(head);
  const format = sniffInput(first).format;
  if (format !== 'pcap' && format !== 'pcapng') {
    signal?.removeEventListener('abort', stop);
    child.stop();
    await reader.return?.();
    await child.exited;
    throw new LiveCaptureError('failed', `${file} wrote something other than a capture: ${sniffInput(first).looks}`, {
      iface,
      program: file,
    });
  }

  async function* chunks(): AsyncGenerator<Uint8Array> {
    let whole = false;
    try {
      yield first;
      for (let r = await reader.next(); !r.done; r = await reader.next()) yield r.value;
      whole = true;
    } finally {
      // The reader stopped early (-c, an error): the program is stopped, and its stdout, no longer
      // read, closed (it must not block on a full pipe). At the end of its output it is left to exit.
      if (whole) child.reap();
      else {
        child.stop();
        await reader.return?.();
      }
    }
  }

  const ended = child.exited.then((exit): LiveCaptureEnd => {
    signal?.removeEventListener('abort', stop);
    const count = (re: RegExp): number | undefined => {
      const m = re.exec(child.stderr);
      return m ? Number(m[1]) : undefined;
    };
    const captured = count(program.captured);
    const dropped = count(program.dropped);
    const said = child.words(program);
    const reason =
      said.filter((l) => l.startsWith(`${program.name}:`)).at(-1) ??
      said.at(-1) ??
      (exit.signal ? `${program.name} was ended by ${exit.signal}` : `${program.name} exited with code ${exit.code}`);
    return {
      stopped: child.stopped,
      code: exit.code,
      signal: exit.signal,
      ...(captured !== undefined ? { captured } : {}),
      ...(dropped !== undefined ? { dropped } : {}),
      ...(child.stopped ? {} : { reason }),
    };
  });

  return { kind: 'capture', format, gzip: false, live: true, chunks: chunks(), program: file, args, stop, ended };
}
