/**
 * The public surface of @gamequery/dissect: every entry of its `exports` map and the runtime
 * names each one exports, sorted. A name added to or taken from an entry changes a list here,
 * so that the change is a decision (and a line of the diff), not a side effect of an
 * `export *`. Each output format has one public function, which gives a string (the JSON
 * document a value): `packetText`, `packetJson`, `packetLine`, `packetSummary` and
 * `FieldsLine`'s `line`; the HTML page is `HtmlWriter`'s, written into a `ByteSink`. The
 * byte-writing forms of the others, which the CLI uses, are in `/internal`:
 * not API and not listed (no promise is made of it), only held to being there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const surface: Record<string, readonly string[]> = {
  '@gamequery/dissect': [
    'BLANK',
    'ByteSink',
    'CaptureParser',
    'Conversations',
    'DEFAULT_CAPACITY',
    'DEFAULT_MAX_HELD_BYTES',
    'DEFAULT_MAX_RECORD_LENGTH',
    'DEFAULT_REASSEMBLY_LIMITS',
    'DISSECT_BATCH',
    'Dissector',
    'EXPERT_LEVELS',
    'ExpertStats',
    'FieldsLine',
    'FilterError',
    'FirstPassStats',
    'FrameRecord',
    'GIVE_UP_AFTER',
    'GUESSING_THRESHOLD',
    'HexDumpError',
    'HexDumpParser',
    'HtmlWriter',
    'IoIntervalError',
    'IoStats',
    'LINKTYPE',
    'LineSplitter',
    'MASK',
    'MAX_INTERVALS',
    'MAX_LINE_LENGTH',
    'MAX_SERVERS',
    'MAX_STREAM_PACKET',
    'MAX_TICKS_PER_SECOND',
    'MICROSECONDS',
    'NANOSECONDS',
    'NotAHexDumpError',
    'ONLY_PROTOCOLS',
    'PIECE_COST',
    'PcapngWriter',
    'ProtocolHierarchy',
    'Reassembler',
    'RttDigest',
    'ServerStats',
    'SourceStats',
    'TIME_FORMATS',
    'UdpDecoder',
    'UnknownFieldError',
    'bytesFromHexDump',
    'captureStart',
    'captureStats',
    'clockTime',
    'compareTimestamps',
    'compileFilter',
    'conversationLines',
    'dissectCapture',
    'dissectCaptureBatches',
    'dissectHexDump',
    'dissectHexDumpStream',
    'dissectPayload',
    'editDistance',
    'expertLines',
    'filterFields',
    'findNetworkLayer',
    'formatIPv4',
    'formatIPv6',
    'formatTimestamp',
    'frameLayers',
    'generatedNodes',
    'hexPane',
    'ioRowHeading',
    'ioRowLine',
    'isFrameRecord',
    'lineOf',
    'looksLikeText',
    'newStats',
    'nodeJson',
    'onlyLines',
    'packetJson',
    'packetLine',
    'packetSummary',
    'packetText',
    'parseConversations',
    'parseExpert',
    'parseHexDump',
    'parseIoStat',
    'parsePhs',
    'phsLines',
    'preferReassembled',
    'readCapture',
    'readCaptureSync',
    'renderIoTable',
    'renderSourcesTable',
    'renderStatsTable',
    'renderTree',
    'showOf',
    'sniffInput',
    'splitTicks',
    'statsTableLines',
    'timeResolution',
    'timestampDifference',
    'timestampToNumber',
    'walkNodes',
  ],
  '@gamequery/dissect/node': [
    'InputError',
    'LiveCaptureError',
    'dissectCaptureFile',
    'fileChunks',
    'inputName',
    'listInterfaces',
    'openInput',
    'openLiveCapture',
  ],
};

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };

/** Entries of the exports map that are files, not modules. */
const files = new Set(['./package.json', './schema/packet.schema.json']);

describe('the public surface', () => {
  it('lists every entry of the exports map: the public ones here, and the internal one', () => {
    const entries = Object.keys(manifest.exports)
      .filter((k) => !files.has(k))
      .map((k) => `@gamequery/dissect${k.slice(1)}`);
    expect(entries.sort()).toEqual([...Object.keys(surface), '@gamequery/dissect/internal'].sort());
  });

  it.each(Object.keys(surface))('exports exactly the listed runtime names from %s', async (entry) => {
    const names = Object.keys((await import(entry)) as object).sort();
    expect(names).toEqual(surface[entry]);
  });

  it("has one public function per output format, and their byte-writing forms (and the CLI's dumped-frame reader) only in the internal entry", async () => {
    const main = (await import('@gamequery/dissect')) as Record<string, unknown>;
    for (const name of ['packetText', 'packetJson', 'packetLine', 'packetSummary', 'FieldsLine'])
      expect(typeof main[name]).toBe('function');
    const internal = (await import('@gamequery/dissect/internal')) as Record<string, unknown>;
    expect(Object.keys(internal).sort()).toEqual([
      'dumpedPayload',
      'writePacketLine',
      'writePacketSummary',
      'writePacketText',
      'writeTimestamp',
    ]);
  });
});
