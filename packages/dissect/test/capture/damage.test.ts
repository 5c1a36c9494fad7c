import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCapture, readCaptureSync, type CaptureError, type CaptureItem } from '../../src/capture/index.ts';
import { block, blocksOf, concat, fixture, FIXTURES, packetsOf, readAll, summary } from './helpers.ts';

function lastError(items: readonly CaptureItem[]): CaptureError {
  const last = items.at(-1);
  expect(last?.kind).toBe('error');
  expect(items.filter((item) => item.kind === 'error')).toHaveLength(1);
  return last as CaptureError;
}

/** Record boundaries of a classic pcap file: [offset, length] of each record. */
function pcapRecords(bytes: Uint8Array): [number, number][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const out: [number, number][] = [];
  for (let pos = 24; pos < bytes.length;) {
    const length = 16 + view.getUint32(pos + 8, true);
    out.push([pos, length]);
    pos += length;
  }
  return out;
}

describe('truncated input', () => {
  it('lo-us.pcap cut at every length: the whole packets before the cut, then one error naming the offset', () => {
    const bytes = fixture('lo-us.pcap');
    const records = pcapRecords(bytes);
    const full = packetsOf([...readCaptureSync(bytes)]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const items = [...readCaptureSync(bytes.subarray(0, cut))];
      const whole = records.filter(([offset, length]) => offset + length <= cut).length;
      expect(summary(packetsOf(items))).toEqual(summary(full.slice(0, whole)));
      const boundary = cut === 24 || records.some(([offset, length]) => offset + length === cut);
      if (boundary) {
        expect(items.every((item) => item.kind === 'packet')).toBe(true);
        continue;
      }
      const error = lastError(items);
      expect(error.code).toBe('truncated');
      if (cut === 0) {
        expect(error.message).toBe('empty input: not a pcap or pcapng file');
      } else if (cut < 4) {
        expect(error.message).toBe(`input ends after ${cut} bytes: too short for a pcap or pcapng file`);
      } else if (cut < 24) {
        expect(error).toMatchObject({ offset: 0, message: `file ends ${cut} bytes into a 24-byte pcap file header at offset 0` });
      } else {
        const [offset, length] = records[whole]!;
        expect(error.offset).toBe(offset);
        expect(error.message).toBe(
          cut - offset < 16
            ? `file ends ${cut - offset} bytes into the 16-byte header of a packet record at offset ${offset}`
            : `file ends ${cut - offset} bytes into a ${length}-byte packet record at offset ${offset}`,
        );
      }
    }
  });

  it('lo.pcapng cut at every length never throws and names the block', async () => {
    const bytes = fixture('lo.pcapng');
    const blocks = blocksOf(bytes);
    const starts = blocks.map((b) => b.byteOffset - bytes.byteOffset);
    for (let cut = 4; cut < bytes.length; cut++) {
      const items = [...readCaptureSync(bytes.subarray(0, cut))];
      if (starts.includes(cut)) continue;
      const error = lastError(items);
      const at = starts.filter((s) => s < cut).at(-1)!;
      expect(error.offset).toBe(at);
      expect(error.message).toMatch(new RegExp(`^file ends ${cut - at} bytes into (a|the 12-byte header of a) .*at offset ${at}$`));
    }
    // The same with a stream of 7-byte chunks, for a few cuts.
    for (const cut of [5, 30, 700, bytes.length - 1]) {
      expect(summary(await readAll(bytes.subarray(0, cut), 7))).toEqual(summary([...readCaptureSync(bytes.subarray(0, cut))]));
    }
  });

  it('reads the committed cut copies (head -c 1000) up to the cut', async () => {
    const pcap = await readAll(fixture('lo-us.cut.pcap'), 64);
    expect(packetsOf(pcap)).toHaveLength(10);
    expect(lastError(pcap)).toEqual({
      kind: 'error',
      code: 'truncated',
      offset: 920,
      message: 'file ends 80 bytes into a 93-byte packet record at offset 920',
    });
    const pcapng = await readAll(fixture('lo.cut.pcapng'), 64);
    expect(packetsOf(pcapng)).toHaveLength(7);
    expect(lastError(pcapng)).toEqual({
      kind: 'error',
      code: 'truncated',
      offset: 980,
      message: 'file ends 20 bytes into a 128-byte Enhanced Packet Block at offset 980',
    });
  });

  it('does not throw from a file stream of a cut capture', async () => {
    const items: CaptureItem[] = [];
    for await (const item of readCapture(createReadStream(FIXTURES + 'lo.cut.pcapng', { highWaterMark: 16 }))) items.push(item);
    expect(lastError(items).offset).toBe(980);
  });
});

describe('not a capture', () => {
  it('names the first bytes of something else', async () => {
    const json = new TextEncoder().encode('{"packets": []}');
    expect(await readAll(json)).toEqual([
      { kind: 'error', code: 'bad-magic', offset: 0, message: 'not a pcap or pcapng file (starts 7b 22 70 61)' },
    ]);
  });

  it('rejects a pcapng section with a bad byte-order magic', async () => {
    const bytes = fixture('lo.pcapng').slice();
    bytes.set([1, 2, 3, 4], 8);
    expect(await readAll(bytes, 5)).toEqual([
      {
        kind: 'error',
        code: 'bad-magic',
        offset: 0,
        message: 'Section Header Block at offset 0 has the byte-order magic 01 02 03 04, not 1a 2b 3c 4d in either byte order',
      },
    ]);
  });

  it('rejects unsupported versions and the modified pcap variant', async () => {
    const pcap = fixture('lo-us.pcap').slice();
    pcap[4] = 3;
    expect(lastError(await readAll(pcap)).message).toBe('pcap version 3.4 is not supported (only 2.x)');
    const pcapng = fixture('lo.pcapng').slice();
    pcapng[12] = 2;
    expect(lastError(await readAll(pcapng)).message).toBe(
      'Section Header Block at offset 0: pcapng version 2.0 is not supported (only 1.x)',
    );
    // A later section: the packets of the first come out, then the error names where the second starts.
    const second = fixture('lo.pcapng').length;
    const two = fixture('two-sections.pcapng').slice();
    two[second + 12] = 2;
    const items = await readAll(two);
    expect(items.filter((i) => i.kind === 'packet')).toHaveLength(16);
    expect(lastError(items)).toMatchObject({
      code: 'unsupported',
      offset: second,
      message: `Section Header Block at offset ${second}: pcapng version 2.0 is not supported (only 1.x)`,
    });
    expect(lastError(await readAll(new Uint8Array([0x34, 0xcd, 0xb2, 0xa1, 2, 0])))).toMatchObject({ code: 'unsupported' });
  });
});

describe('pcapng block lengths', () => {
  const file = fixture('lo.pcapng');
  const blocks = blocksOf(file);
  const epbIndex = blocks.findIndex((b) => b[0] === 6);
  const epbOffset = blocks[epbIndex]!.byteOffset - file.byteOffset;

  function withLength(length: number, trailer?: number): Uint8Array {
    const copy = file.slice();
    const view = new DataView(copy.buffer);
    view.setUint32(epbOffset + 4, length, true);
    if (trailer !== undefined) view.setUint32(epbOffset + blocks[epbIndex]!.length - 4, trailer, true);
    return copy;
  }

  it.each([
    [0, 'has a total length of 0 bytes'],
    [8, 'has a total length of 8 bytes, less than the minimum of 32'],
    [30, 'has a total length of 30 bytes, less than the minimum of 32'],
    [130, 'has a total length of 130 bytes, not a multiple of 4'],
    [0x7ffffffc, 'has a total length of 2147483644 bytes, more than the limit of 327680'],
  ])('stops at a block length of %i', async (length, text) => {
    const items = await readAll(withLength(length), 64);
    expect(packetsOf(items)).toHaveLength(0);
    expect(lastError(items)).toEqual({
      kind: 'error',
      code: 'bad-block-length',
      offset: epbOffset,
      message: `Enhanced Packet Block at offset ${epbOffset} ${text}`,
    });
  });

  it('stops where header and trailer lengths disagree, after the packets before', async () => {
    const second = blocks.findIndex((b, i) => i > epbIndex && b[0] === 6);
    const offset = blocks[second]!.byteOffset - file.byteOffset;
    const copy = file.slice();
    new DataView(copy.buffer).setUint32(offset + blocks[second]!.length - 4, 999, true);
    const items = await readAll(copy, 1);
    expect(packetsOf(items)).toHaveLength(1);
    expect(lastError(items)).toMatchObject({
      code: 'bad-block-length',
      offset,
      message: `Enhanced Packet Block at offset ${offset} has a total length of ${blocks[second]!.length} bytes in its header but 999 in its trailer`,
    });
  });

  it('stops at a captured length beyond the block, an unknown interface, or a bad option', async () => {
    const beyond = file.slice();
    new DataView(beyond.buffer).setUint32(epbOffset + 20, 200, true);
    expect(lastError(await readAll(beyond))).toMatchObject({
      code: 'bad-captured-length',
      message: `Enhanced Packet Block at offset ${epbOffset} has a captured length of 200 bytes, which does not fit in its total length of ${blocks[epbIndex]!.length}`,
    });
    const unknown = file.slice();
    new DataView(unknown.buffer).setUint32(epbOffset + 8, 3, true);
    expect(lastError(await readAll(unknown))).toMatchObject({
      code: 'bad-block',
      message: `Enhanced Packet Block at offset ${epbOffset} refers to interface 3, but its section describes 1`,
    });
    const idbOffset = blocks[1]!.byteOffset - file.byteOffset;
    const option = file.slice();
    new DataView(option.buffer).setUint16(idbOffset + 18, 400, true); // first IDB option's length
    expect(lastError(await readAll(option))).toMatchObject({ code: 'bad-block', offset: idbOffset });
  });
});

describe('captured lengths', () => {
  it('stops at a pcap record longer than the snapshot length', async () => {
    const bytes = fixture('lo-snap60.pcap').slice();
    const view = new DataView(bytes.buffer);
    const second = 24 + 16 + view.getUint32(24 + 8, true);
    view.setUint32(second + 8, 61, true);
    const items = await readAll(bytes, 7);
    expect(packetsOf(items)).toHaveLength(1);
    expect(lastError(items)).toEqual({
      kind: 'error',
      code: 'bad-captured-length',
      offset: second,
      message: `packet record at offset ${second} has a captured length of 61 bytes, more than the snapshot length of 60`,
    });
  });

  it('stops at an absurd captured length without buffering it', async () => {
    const bytes = fixture('lo-us.pcap').slice();
    const view = new DataView(bytes.buffer);
    view.setUint32(16, 0, true); // snapshot length 0: no limit from the file
    view.setUint32(24 + 8, 0xfffffff0, true);
    expect(lastError(await readAll(bytes))).toEqual({
      kind: 'error',
      code: 'bad-captured-length',
      offset: 24,
      message: 'packet record at offset 24 has a captured length of 4294967280 bytes, more than the limit of 262144',
    });
  });

  it('stops at a pcapng packet longer than its interface snaplen', async () => {
    const [shb, , epb] = blocksOf(fixture('lo.pcapng'));
    const idb = new Uint8Array(8);
    new DataView(idb.buffer).setUint16(0, 1, true);
    new DataView(idb.buffer).setUint32(4, 20, true); // snaplen 20
    const file = concat(shb!, block(1, idb), epb!);
    const offset = shb!.length + 20;
    expect(lastError(await readAll(file))).toMatchObject({
      code: 'bad-captured-length',
      offset,
      message: `Enhanced Packet Block at offset ${offset} has a captured length of ${epb![20]} bytes, more than the snapshot length of 20`,
    });
  });

  it('honours a lower maxRecordLength', async () => {
    const items = [...readCaptureSync(fixture('lo-us.pcap'), { maxRecordLength: 60 })];
    expect(lastError(items).message).toMatch(/captured length of \d+ bytes, more than the limit of 60$/);
  });
});
