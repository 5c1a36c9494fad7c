/**
 * Hex dumps read as a stream: the same packets and diagnostics as the whole text read at once,
 * however the bytes are cut; bounded lines and packets; giving up on what holds no dump.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dissectHexDump, dissectHexDumpStream, NotAHexDumpError, packetLine, parseHexDump, type HexBatch } from '../../src/index.ts';
import { LineSplitter } from '../../src/hex/lines.ts';

const dir = new URL('../fixtures/hex/', import.meta.url);
const dumps = readdirSync(dir).filter((f) => f.endsWith('.txt'));
const bytesOf = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, dir)));

function* cut(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(batches: AsyncIterable<HexBatch>): Promise<{ lines: string[]; diagnostics: unknown[] }> {
  const lines: string[] = [];
  let diagnostics: unknown[] = [];
  for await (const b of batches) {
    for (const p of b.packets) lines.push(packetLine(p));
    if (b.diagnostics) diagnostics = [...b.diagnostics];
  }
  return { lines, diagnostics };
}

describe('LineSplitter', () => {
  it('hands on the lines of a real dump, CRLF or LF, however the bytes are cut', () => {
    const text = readFileSync(new URL('samp-udp.tshark-Vx.txt', dir), 'utf8');
    const expected = text.split('\n').slice(0, -1);
    for (const eol of ['\n', '\r\n']) {
      const bytes = Buffer.from(expected.join(eol) + eol);
      for (const size of [1, 2, 3, 7, 64, 4096]) {
        const got: string[] = [];
        const s = new LineSplitter({ line: (t, n) => got.push(`${n}:${t}`), overlong: (n) => got.push(`${n}:overlong`) });
        for (const c of cut(bytes, size)) s.push(c);
        s.finish();
        expect(got, `${size}`).toEqual(expected.map((l, i) => `${i + 1}:${l}`));
      }
    }
  });

  it('keeps a line that does not end in a line break, and multi-byte characters cut between chunks', () => {
    const got: string[] = [];
    const s = new LineSplitter({ line: (t) => got.push(t), overlong: () => got.push('overlong') });
    for (const c of cut(Buffer.from('½ 53 41\nGröße → 4d 50'), 1)) s.push(c);
    s.finish();
    expect(got).toEqual(['½ 53 41', 'Größe → 4d 50']);
  });

  it('skips a line past its limit, wherever the chunks cut it, and keeps the lines around it', () => {
    const limit = 100;
    const text = `first\n${'x'.repeat(limit)}\n${'y'.repeat(limit + 1)}\n${'z'.repeat(5 * limit)}\nlast`;
    for (const size of [1, 10, 99, 100, 101, 1000]) {
      const got: string[] = [];
      const s = new LineSplitter({ line: (t, n) => got.push(`${n}:${t.length}`), overlong: (n, l) => got.push(`${n}:over ${l}`) }, limit);
      for (const c of cut(Buffer.from(text), size)) s.push(c);
      s.finish();
      expect(got, `${size}`).toEqual(['1:5', `2:${limit}`, `3:over ${limit}`, `4:over ${limit}`, '5:4']);
    }
  });
});

describe('dissectHexDumpStream', () => {
  it.each(dumps)('gives for %s what the whole text gives, in chunks of 1 B to 64 KiB', async (name) => {
    const bytes = bytesOf(name);
    const whole = dissectHexDump(new TextDecoder().decode(bytes));
    const expected = { lines: whole.packets.map((p) => packetLine(p)), diagnostics: [...whole.diagnostics] };
    for (const size of [1, 13, 4096, 65536]) {
      expect(await collect(dissectHexDumpStream(cut(bytes, size))), `${size}`).toEqual(expected);
    }
  });

  it('gives up on text with no dump line in its first MiB, having read little more', async () => {
    let read = 0;
    function* prose(): Generator<Uint8Array> {
      const chunk = Buffer.from('This is a forum post about a server, with no dump in it.\n'.repeat(1000));
      for (;;) {
        read += chunk.length;
        yield chunk;
      }
    }
    const error = await collect(dissectHexDumpStream(prose())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAHexDumpError);
    expect((error as Error).message).toMatch(/^no hex dump line in the first 1 MiB \(\d+ lines\): not a hex dump$/);
    expect(read).toBeLessThan((1 << 20) + 60_000);
  });

  it('says so at the end of a short text with no dump line', async () => {
    const error = await collect(dissectHexDumpStream([Buffer.from('hello\nworld\n')])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAHexDumpError);
    expect((error as Error).message).toBe('no hex dump in it (2 lines of text): not a hex dump');
  });

  it('keeps a packet to 1 MiB, with one warning, and the offsets of the rest checked', async () => {
    // 2 MiB as xxd -g1 rows (offsets that go on past the limit without a gap).
    const rows: string[] = [];
    for (let at = 0; at < 2 << 20; at += 16) rows.push(`${at.toString(16).padStart(8, '0')}: ${'41 '.repeat(16)} AAAAAAAAAAAAAAAA`);
    const r = parseHexDump(rows.join('\n'), { maxPacketBytes: 1 << 20 });
    expect(r.packets.map((p) => p.bytes.length)).toEqual([1 << 20]);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['too-large', (1 << 16) + 1]]);
  });
});
