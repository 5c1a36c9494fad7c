/**
 * One command of `pnpm bench dissect`, as a user runs it: wall time from spawn to exit and the
 * process's peak RSS, its output to /dev/null (or a file), its input a capture's path or the
 * capture itself on stdin.
 */
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, createReadStream, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { root } from '../scripts/build.mjs';
import { formatRate } from './harness.ts';

/** `/usr/bin/time` if it can be run: it reports the child's peak RSS exactly, from the kernel. */
const TIME = ((): string | undefined => {
  try {
    accessSync('/usr/bin/time', constants.X_OK);
    return '/usr/bin/time';
  } catch {
    return undefined;
  }
})();

export interface Run {
  readonly seconds: number;
  readonly status: number | null;
  /** Peak resident set in bytes, or undefined if it could not be read. */
  readonly peak: number | undefined;
  readonly stderr: string;
}

export interface Io {
  /** A file fed to the command's stdin through a pipe (as `cat FILE |` would); default none. */
  readonly stdin?: string;
  /** Where its stdout goes; default /dev/null. */
  readonly stdout?: string;
}

/**
 * Runs a command: wall time from spawn to exit and peak RSS, by `/usr/bin/time -f %M` when
 * installed, else by reading the child's VmHWM (its own high-water mark, so the last value read
 * before it exits is at most a poll interval short of the peak). With `io.stdin`, the time is the
 * pipeline's (this process reads the file and writes it into the pipe) and the peak the command's.
 */
export async function measure(command: string, args: readonly string[], io: Io = {}): Promise<Run> {
  const out = openSync(io.stdout ?? '/dev/null', 'w');
  const report = TIME ? join(tmpdir(), `gamequery-bench-time-${process.pid}-${Date.now()}`) : undefined;
  try {
    const stdio = [io.stdin ? 'pipe' : 'ignore', out, 'pipe'] as const;
    const t0 = process.hrtime.bigint();
    const child = TIME
      ? spawn(TIME, ['-f', '%M', '-o', report!, command, ...args], { cwd: root, stdio: [...stdio] })
      : spawn(command, args, { cwd: root, stdio: [...stdio] });
    // A command that exits before reading all of its input closes the pipe: not this run's failure.
    const feeding = io.stdin ? pipeline(createReadStream(io.stdin, { highWaterMark: 1 << 20 }), child.stdin!).catch(() => {}) : undefined;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < 4096) stderr += s;
    });
    let hwm: number | undefined;
    const poll = TIME
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Number(m[1]) * 1024;
          } catch {
            /* it has exited */
          }
        }, 20);
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await feeding;
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (poll) clearInterval(poll);
    let peak = hwm;
    if (report) {
      try {
        const kib = Number(readFileSync(report, 'utf8').trim().split('\n').pop());
        if (kib > 0) peak = kib * 1024;
      } catch {
        /* no report: the command could not be run */
      }
    }
    return { seconds, status, peak, stderr };
  } finally {
    closeSync(out);
    if (report) rmSync(report, { force: true });
  }
}

export interface Figure {
  /** Frames of the capture per second, end to end. */
  readonly rate: number;
  readonly seconds: number;
  readonly peak: number | undefined;
  /** What the command said on stderr (its first 4 KiB): why a count may be off. */
  readonly stderr: string;
}

export const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
export const showPeak = (peak: number | undefined): string => (peak === undefined ? '?' : `${mib(peak)} MiB`);

/** Runs `command` on a capture of `frames` frames; prints its line and returns its figure (undefined if it failed). */
export async function timed(label: string, frames: number, command: string, args: readonly string[], io?: Io): Promise<Figure | undefined> {
  const r = await measure(command, args, io);
  if (r.status !== 0) {
    console.log(`  ${label}: failed (exit ${r.status}) ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return undefined;
  }
  const rate = frames / r.seconds;
  console.log(
    `  ${label.padEnd(72)} ${formatRate(rate).padStart(9)} packets/s  ${r.seconds.toFixed(2).padStart(7)} s  peak RSS ${showPeak(r.peak).padStart(8)}`,
  );
  return { rate, seconds: r.seconds, peak: r.peak, stderr: r.stderr };
}
