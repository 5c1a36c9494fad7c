/**
 * `gamequery dissect -i IFACE [-f FILTER]`: a live capture in place of a file, with tshark's
 * habits around it: `Capturing on 'IFACE'` once it has begun, Ctrl-C (SIGINT), SIGTERM or
 * SIGHUP stop it (what is pending is still written), and `N packets captured` at the end. The
 * capture itself, which program runs and how, is the dissector's (`openLiveCapture`).
 */
import type { Command } from 'commander';
import { escapeControls } from '@gamequery/codec/internal';
import type { DissectStats } from '@gamequery/dissect';
import { openLiveCapture, type LiveCapture } from '@gamequery/dissect/node';
import { EXIT } from '../args.ts';

export interface LiveOpts {
  interface?: string;
  captureFilter?: string;
}

/** Adds `-i` and `-f` to `dissect`. */
export function addLiveOptions(command: Command): Command {
  return command
    .option('-i, --interface <name>', 'capture live on this interface instead of reading a file (runs dumpcap, else tcpdump); Ctrl-C stops')
    .option('-f, --capture-filter <filter>', "with -i: a capture filter, as tcpdump takes it ('udp port 7777')");
}

export const LIVE_HELP = `
Live capture (-i): dumpcap if it is on PATH (apt-get install tshark), else tcpdump; it needs
root, or capture rights for the program (setcap cap_net_raw,cap_net_admin=eip, or the
wireshark group). Packets are written as the capture runs; Ctrl-C stops, writes what is pending
(a request still waiting shows unanswered) and says how many packets were captured; -c N
stops after N. E.g. gamequery dissect -i lo -f 'udp port 7777'`;

/** What the input is called in messages and titles: the file, or with -i the interface; a usage error for neither or both. */
export function inputLabel(file: string | undefined, opts: LiveOpts): string {
  if (opts.interface !== undefined) {
    if (file !== undefined)
      throw new Error(`a file (${escapeControls(file)}) and -i ${escapeControls(opts.interface)}: read one or capture, not both`);
    return opts.interface;
  }
  if (opts.captureFilter !== undefined) throw new Error('-f (a capture filter) needs -i INTERFACE; to choose packets of a file, use -Y');
  if (file === undefined) throw new Error('no input: name a capture or hex dump file ("-" for stdin), or -i INTERFACE to capture live');
  return file;
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

  /** The capture, once begun. */
  get input(): LiveCapture {
    return this.#capture!;
  }

  /** Starts the capture; a failure to begin is a usage error (one line: what to install, which permission, no such interface). */
  static async open(opts: LiveOpts): Promise<LiveRun> {
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
      if (!run.#abort.signal.aborted) throw e;
      // Stopped before the capture began: nothing was captured.
      process.stderr.write('0 packets captured\n');
      process.exit(EXIT.ok);
    }
    process.stderr.write(`Capturing on '${escapeControls(opts.interface!)}'\n`);
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
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, this.#onSignal);
  }
}
