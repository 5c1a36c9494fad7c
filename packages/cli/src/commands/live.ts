/**
 * `gamequery dissect -i IFACE [-f FILTER]`: a live capture in place of a file, with tshark's
 * habits around it: `Capturing on 'IFACE'` once it has begun, Ctrl-C (SIGINT), SIGTERM or
 * SIGHUP stop it (what is pending is still written), `-a duration:N` stops it after N seconds,
 * and `N packets captured` at the end. The capture itself, which program runs and how, is the
 * dissector's (`openLiveCapture`). And where the input comes from otherwise: a file named, or
 * with tshark's `-r FILE`.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { escapeControls } from '@gamequery/codec/internal';
import type { DissectStats } from '@gamequery/dissect';
import { listInterfaces, openLiveCapture, type LiveCapture } from '@gamequery/dissect/node';
import { EXIT } from '../args.ts';
import { FileOut } from '../file-out.ts';

export interface LiveOpts {
  listInterfaces?: boolean;
  interface?: string;
  captureFilter?: string;
  readFile?: string;
  autostop: Autostop;
  write?: string;
}

/** tshark's `-a` stop conditions that gamequery has: a live capture's length, and a count of packets written. */
export interface Autostop {
  /** Seconds after the capture began (-i only). */
  readonly duration?: number;
  /** Packets written (with -q, that would have been): as `-c`. */
  readonly packets?: number;
}

/**
 * One `-a CONDITION:VALUE`, added to those before (tshark's: the first met stops). `filesize`
 * and `files` end tshark's capture files and their ring buffer (`-w`, `-b`), which gamequery does not have.
 */
export function collectAutostop(value: string, previous: Autostop): Autostop {
  const colon = value.indexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  const given = colon < 0 ? '' : value.slice(colon + 1);
  if (name === 'duration') {
    const seconds = Number(given);
    if (!/^\s*\d*\.?\d+\s*$/.test(given) || !(seconds > 0) || !Number.isFinite(seconds))
      throw new InvalidArgumentError(`duration:${given}: expected a number of seconds > 0 (duration:60)`);
    return { ...previous, duration: Math.min(seconds, previous.duration ?? Infinity) };
  }
  if (name === 'packets') {
    const n = Number(given);
    if (!/^\s*\d+\s*$/.test(given) || !Number.isSafeInteger(n) || n < 1)
      throw new InvalidArgumentError(`packets:${given}: expected a whole number of packets ≥ 1 (packets:1000)`);
    return { ...previous, packets: Math.min(n, previous.packets ?? Infinity) };
  }
  if (name === 'filesize' || name === 'files')
    throw new InvalidArgumentError(
      `${name}: ends tshark's capture files and their ring buffer (-w -b), which gamequery does not have: use duration: or packets:`,
    );
  throw new InvalidArgumentError(`'${value}': not a stop condition gamequery has (duration:SECONDS with -i, packets:N)`);
}

/** Adds `-r`, `-i`, `-f` and `-a` to `dissect`. */
export function addLiveOptions(command: Command): Command {
  return command
    .option('-r, --read-file <file>', 'the capture or hex dump file to read, as tshark -r (the same as naming it)')
    .option('-i, --interface <name>', 'capture live on this interface instead of reading a file (runs dumpcap, else tcpdump); Ctrl-C stops')
    .option('-D, --list-interfaces', 'list the interfaces -i can capture on (dumpcap -D, else tcpdump -D), as tshark -D, and exit')
    .option('-f, --capture-filter <filter>', "with -i: a capture filter, as tcpdump takes it ('udp port 7777')")
    .option(
      '-w, --write <file>',
      'write the packets to this capture file too, as tshark -w: from a file or a pipe those the display filter passes (pcapng), with -i the whole capture as it comes (as the capture program writes it: dumpcap pcapng, tcpdump pcap)',
    )
    .option(
      '-a, --autostop <cond>',
      'stop as tshark -a (repeatable; the first met stops): duration:SECONDS stops a live capture (-i) after that long, packets:N after N packets written, as -c',
      collectAutostop,
      {},
    );
}

export const LIVE_HELP = `
Live capture (-i): dumpcap if it is on PATH (apt-get install tshark), else tcpdump; it needs
root, or capture rights for the program (setcap cap_net_raw,cap_net_admin=eip, or the
wireshark group). Packets are written as the capture runs; Ctrl-C stops, writes what is pending
(a request still waiting shows unanswered) and says how many packets were captured; -c N
stops after N packets written, -a duration:SECONDS after that long; -w FILE keeps the capture
in a file as well (as the program writes it: dumpcap pcapng, tcpdump pcap); -D lists the interfaces.
From a file or a pipe, -w FILE writes the packets the display filter (-Y) passes, as pcapng.
E.g. gamequery dissect -i lo -f 'udp port 7777' -a duration:60`;

/**
 * What the input is called in messages and titles: the file (named, or with -r), or with -i the
 * interface; a usage error for neither or both, and for a stop condition that only a live capture has.
 */
export function inputLabel(named: string | undefined, opts: LiveOpts): string {
  if (named !== undefined && opts.readFile !== undefined)
    throw new Error(`two files to read: ${escapeControls(named)} and -r ${escapeControls(opts.readFile)}`);
  const file = named ?? opts.readFile;
  if (opts.interface === undefined && opts.autostop.duration !== undefined)
    throw new Error('-a duration: stops a live capture (-i INTERFACE); a file is read to its end (-c N or -a packets:N stop it sooner)');
  if (opts.write === '-')
    throw new Error('-w -: stdout is the dissection; for the capture itself on stdout, run dumpcap -w - or tcpdump -w -');
  if (opts.interface !== undefined) {
    if (file !== undefined)
      throw new Error(`a file (${escapeControls(file)}) and -i ${escapeControls(opts.interface)}: read one or capture, not both`);
    return opts.interface;
  }
  if (opts.captureFilter !== undefined) throw new Error('-f (a capture filter) needs -i INTERFACE; to choose packets of a file, use -Y');
  if (file === undefined) throw new Error('no input: name a capture or hex dump file ("-" for stdin), or -i INTERFACE to capture live');
  return file;
}

/** `-D`: the interfaces, one a line as tshark -D writes them (`3. lo (Loopback)`). */
export function printInterfaces(): void {
  for (const i of listInterfaces().interfaces)
    process.stdout.write(`${i.number}. ${escapeControls(i.name)}${i.description ? ` (${escapeControls(i.description)})` : ''}\n`);
}

/** The capture's chunks, each also written to `file` (-w) as it comes, before it is dissected; the file closed when they end. */
async function* written(chunks: AsyncIterable<Uint8Array>, file: FileOut): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) {
      file.write(chunk);
      yield chunk;
    }
  } finally {
    file.close();
  }
}

/** Signals this soon after the first stop the capture no more than it did. */
const SAME_STOP_MS = 1000;

/** A live capture being dissected: started, stopped by a signal, reported at the end. */
export class LiveRun {
  readonly #abort = new AbortController();
  /** When the first signal came (Date.now()), 0 before. */
  #signalled = 0;
  readonly #onSignal = (): void => {
    // The first stops the capture, which then ends as usual. Signals within a second of it are the
    // same request (`timeout` signals the command and then its whole process group; a terminal, its
    // foreground group): one later (a person's second Ctrl-C) ends the command at once, its output cut.
    const now = Date.now();
    if (this.#signalled === 0) {
      this.#signalled = now;
      this.#abort.abort();
      return;
    }
    if (now - this.#signalled < SAME_STOP_MS) return;
    process.stderr.write('gamequery: stopped again: ending at once, what was pending is not written\n');
    process.exit(EXIT.damaged);
  };
  #capture: LiveCapture | undefined;
  /** -a duration: the timer that stops the capture. */
  #timer: NodeJS.Timeout | undefined;

  /** The capture, once begun. */
  get input(): LiveCapture {
    return this.#capture!;
  }

  /** Starts the capture; a failure to begin is a usage error (one line: what to install, which permission, no such interface). */
  static async open(opts: LiveOpts): Promise<LiveRun> {
    // -w: the file made before the capture begins, so that one that cannot be written is a usage error and nothing is captured.
    const file = opts.write === undefined ? undefined : new FileOut(opts.write, 'the capture');
    const run = new LiveRun();
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, run.#onSignal);
    try {
      run.#capture = await openLiveCapture({
        iface: opts.interface!,
        ...(opts.captureFilter !== undefined ? { filter: opts.captureFilter } : {}),
        signal: run.#abort.signal,
      });
    } catch (e) {
      run.#release();
      file?.close();
      if (!run.#abort.signal.aborted) throw e;
      // Stopped before the capture began: nothing was captured.
      process.stderr.write('0 packets captured\n');
      process.exit(EXIT.ok);
    }
    if (file) run.#capture = { ...run.#capture!, chunks: written(run.#capture!.chunks, file) };
    process.stderr.write(`Capturing on '${escapeControls(opts.interface!)}'\n`);
    // -a duration:N: stopped after N seconds of capture as a signal stops it (what is pending written, exit 0).
    const duration = opts.autostop.duration;
    if (duration !== undefined) run.#timer = setTimeout(() => run.#abort.abort(), duration * 1000).unref();
    return run;
  }

  /** Stops the capture program (-c N reached): what it captured still comes, then its chunks end. */
  stop(): void {
    this.#capture?.stop();
  }

  /** After the dissector has finished: why the capture ended, if on its own, and how many packets it held. */
  async end(stats: DissectStats): Promise<void> {
    const end = await this.input.ended;
    this.#release();
    if (!end.stopped) {
      process.stderr.write(`gamequery: the capture ended by itself: ${end.reason}\n`);
      if (!process.exitCode) process.exitCode = EXIT.damaged;
    }
    if (end.dropped) process.stderr.write(`${end.dropped} packets dropped (counted by the capture program)\n`);
    process.stderr.write(`${stats.frames} packets captured\n`);
  }

  #release(): void {
    clearTimeout(this.#timer);
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, this.#onSignal);
  }
}
