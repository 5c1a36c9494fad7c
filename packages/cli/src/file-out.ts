/**
 * A file that `-w` writes as the run goes (a live capture's bytes, or the pcapng of the packets
 * a filter passes): made at once, so that one that cannot be made is a usage error before
 * anything is read; written whole, block by block; a write that fails later (a full disk) is
 * said once on stderr, exit 1 at the end, and the run goes on without the file: what is being
 * dissected is not lost to it.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { escapeControls } from '@gamequery/codec/internal';
import { EXIT } from './args.ts';

export class FileOut {
  readonly #fd: number;
  #written = 0;
  #failed = false;

  /** `going`: what goes on without the file, for the line that says a write failed ("the capture"). */
  constructor(
    readonly name: string,
    readonly going: string,
  ) {
    try {
      this.#fd = openSync(name, 'w');
    } catch (e) {
      throw new Error(`-w ${escapeControls(name)}: cannot write it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }

  write(bytes: Uint8Array): void {
    if (this.#failed) return;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.#fd, bytes, at, bytes.length - at);
      this.#written += bytes.length;
    } catch (e) {
      this.#failed = true;
      process.exitCode = EXIT.damaged;
      process.stderr.write(
        `gamequery: -w ${escapeControls(this.name)}: writing failed after ${this.#written} bytes (${(e as NodeJS.ErrnoException).code ?? String(e)}): ${this.going} goes on without the file\n`,
      );
    }
  }

  close(): void {
    closeSync(this.#fd);
  }
}
