/**
 * Opening what a user names as input (a path, or `-` for stdin), once, before any frame is
 * read: its first bytes say whether it is a capture (pcap, pcapng), gzip of anything we read
 * (unpacked as it streams, with Node's zlib), or text that may hold a hex dump; anything else
 * is refused with an {@link InputError} that says what it looks like.
 *
 * A regular, uncompressed capture file is best read twice (`dissectCaptureFile`); a pipe, a
 * device or a gzip file can be read only once, and comes back as a stream of chunks (the first
 * ones, read to sniff, are handed on first).
 */
import { peek, type Peeked } from '../capture/peek.ts';
import { closeSync, createReadStream, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { sniffInput, type Sniffed } from '../capture/sniff.ts';

/**
 * An input opened by what its first bytes are: a capture file read by path, a capture or text read once as
 * a stream.
 */
export type OpenedInput =
  /** A regular, uncompressed capture file: read it by path, in two passes. */
  | { readonly kind: 'capture-file'; readonly path: string; readonly format: 'pcap' | 'pcapng' }
  /**
   * A capture to read once, in order: `live` when it comes as it is made (stdin, a FIFO, a
   * device), not from a regular file (gzip).
   */
  | {
      readonly kind: 'capture';
      readonly format: 'pcap' | 'pcapng';
      readonly gzip: boolean;
      readonly live: boolean;
      readonly chunks: AsyncIterable<Uint8Array>;
      /** Stops reading: `chunks` ends, a read waiting for bytes that may never come (a quiet pipe) included. */
      readonly stop: () => void;
    }
  /** Text (UTF-8), to read once for hex dumps; `live` and `stop` as for a capture. */
  | {
      readonly kind: 'text';
      readonly gzip: boolean;
      readonly live: boolean;
      readonly chunks: AsyncIterable<Uint8Array>;
      readonly stop: () => void;
    };

/** Why an input could not be opened. */
export type InputErrorCode =
  /** Missing, a directory, not readable. */
  | 'unreadable'
  /** No bytes at all. */
  | 'empty'
  /** Neither a capture nor text (nor gzip of one). */
  | 'not-a-capture'
  /** The gzip stream is damaged or cut short (what came before it was read). */
  | 'bad-gzip';

/** Why an input cannot be read (or could not be read to its end); the message names it. */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly info: { readonly code: InputErrorCode; readonly input: string };
  constructor(code: InputErrorCode, input: string, message: string) {
    super(message);
    this.info = { code, input };
  }
}

/** Bytes read from the start to tell what an input is (text is judged on these). */
const HEAD = 4096;

/** Names of standard input in the file system. */
const STDIN_NAMES = ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'];

/** The name of an input in messages. */
export const inputName = (path: string): string => (path === '-' ? 'stdin' : path);

const refusal = (name: string, s: Sniffed, inside = ''): InputError =>
  new InputError(
    s.looks === 'empty' ? 'empty' : 'not-a-capture',
    name,
    s.looks === 'empty'
      ? `${name}: ${inside ? `${inside}, holds nothing` : 'empty (no bytes at all)'}`
      : `${name}: not a capture (pcap, pcapng) or a hex dump${inside ? `, ${inside}` : ''}: it starts with ${s.first}, ${s.looks}`,
  );

/**
 * The first chunks of a stream, enough to sniff (`want` bytes, or fewer if the capture magic
 * settles it, or the stream ends), and the whole stream again, those chunks first.
 */
const sniffed = (source: AsyncIterable<Uint8Array>, want: number): Promise<Peeked> =>
  peek(source, want, (first) => {
    const format = first.length >= 4 ? sniffInput(first.subarray(0, 4)).format : undefined;
    return format !== undefined && format !== 'text';
  });

/** The stream unpacked; a damaged gzip becomes an {@link InputError} after what came before it. */
async function* gunzip(name: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const unpacked = Readable.from(chunks).pipe(createGunzip());
  try {
    for await (const chunk of unpacked) yield chunk as Uint8Array;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new InputError('bad-gzip', name, `${name}: damaged gzip data: ${why}`);
  } finally {
    unpacked.destroy();
  }
}

/** Opens `path` (`-`: stdin) and says how to read it; throws {@link InputError} for what cannot be read. */
export async function openInput(path: string): Promise<OpenedInput> {
  const name = inputName(path);
  let source: AsyncIterable<Uint8Array>;
  let stat: Stats | undefined;
  try {
    stat = path === '-' ? undefined : statSync(path);
  } catch (e) {
    throw new InputError('unreadable', name, `${name}: cannot open it (${(e as { code?: string }).code ?? String(e)})`);
  }
  // Stdin as a socket (a parent process's stdio) cannot be opened again by name: read it as such.
  if (path === '-' || (stat?.isSocket() && STDIN_NAMES.includes(path))) {
    source = process.stdin;
  } else {
    if (stat!.isDirectory()) throw new InputError('unreadable', name, `${name}: is a directory`);
    if (stat!.isFile()) {
      let head: Uint8Array;
      try {
        const fd = openSync(path, 'r');
        try {
          const buf = Buffer.alloc(Math.min(HEAD, Math.max(0, fstatSync(fd).size)) || HEAD);
          head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
        } finally {
          closeSync(fd);
        }
      } catch (e) {
        throw new InputError('unreadable', name, `${name}: cannot read it (${(e as { code?: string }).code ?? String(e)})`);
      }
      const s = sniffInput(head);
      if (s.format === 'pcap' || s.format === 'pcapng') return { kind: 'capture-file', path, format: s.format };
      if (s.format === undefined) throw refusal(name, s);
    }
    // Read once, in order: a gzip or text file, a pipe (/dev/stdin), a device (/dev/zero).
    source = createReadStream(path, { highWaterMark: 1 << 16 });
  }
  let outer: Awaited<ReturnType<typeof peek>>;
  try {
    outer = await sniffed(source, HEAD);
  } catch (e) {
    throw new InputError('unreadable', name, `${name}: cannot read it (${(e as { code?: string }).code ?? String(e)})`);
  }
  const s = sniffInput(outer.head);
  if (s.format === undefined) {
    await outer.close();
    throw refusal(name, s);
  }
  // A regular file is read as fast as it can be; anything else comes as it is made.
  const live = !stat?.isFile();
  if (s.format !== 'gzip') {
    const { chunks, stop } = stoppable(outer.chunks, source as Readable);
    return s.format === 'text'
      ? { kind: 'text', gzip: false, live, chunks, stop }
      : { kind: 'capture', format: s.format, gzip: false, live, chunks, stop };
  }
  const inner = await sniffed(gunzip(name, outer.chunks), HEAD);
  const t = sniffInput(inner.head);
  if (t.format === undefined || t.format === 'gzip') {
    await inner.close();
    await outer.close();
    throw refusal(name, t.format === 'gzip' ? { ...t, looks: 'gzip inside gzip' } : t, 'gzip-compressed');
  }
  const { chunks, stop } = stoppable(inner.chunks, source as Readable);
  return t.format === 'text'
    ? { kind: 'text', gzip: true, live, chunks, stop }
    : { kind: 'capture', format: t.format, gzip: true, live, chunks, stop };
}

/**
 * `chunks`, and a `stop` that ends them at once: a read waiting for bytes that may never come
 * (a quiet pipe, after `-c N` packets) gives up, and `stream` under it is let go. What
 * destroying the stream throws at the read given up goes nowhere: the reader has ended.
 */
function stoppable(chunks: AsyncIterable<Uint8Array>, stream: Readable): { chunks: AsyncGenerator<Uint8Array>; stop: () => void } {
  let stopped = false;
  /** Ends the read waiting now, if one is. A promise of its own per read: one shared by every read (raced against each) kept every chunk read alive. */
  let wake: ((r: IteratorResult<Uint8Array>) => void) | undefined;
  async function* read(): AsyncGenerator<Uint8Array> {
    const it = chunks[Symbol.asyncIterator]();
    while (!stopped) {
      const r = await new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
        wake = resolve;
        it.next().then(resolve, reject);
      });
      wake = undefined;
      if (r.done) return;
      yield r.value;
    }
  }
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    wake?.({ done: true, value: undefined });
    stream.on('error', () => undefined);
    stream.destroy();
  };
  return { chunks: read(), stop };
}
