/**
 * Type tests of what a dissection lists, checked by `pnpm test` (types.test.ts here) and `pnpm typecheck`: query
 * packets (`PacketRecord`) unless the options may ask for every frame, whatever else they hold.
 */
import { expectTypeOf } from 'vitest';
import { builtInProtocols } from '@gamequery/codec';
import {
  dissectCaptureBatches,
  dissectHexDump,
  type DissectBatch,
  type DissectOptions,
  type DissectedRecord,
  type PacketRecord,
} from '@gamequery/dissect';
import { dissectCaptureFile } from '@gamequery/dissect/node';

type Batches<R extends DissectedRecord> = AsyncGenerator<DissectBatch<R>>;
declare const options: DissectOptions;
declare const some: boolean;

// Packets: no options, options without `allFrames`, `allFrames: false`.
expectTypeOf(dissectCaptureFile('a.pcap')).toEqualTypeOf<Batches<PacketRecord>>();
expectTypeOf(dissectCaptureFile('a.pcap', { protocols: builtInProtocols })).toEqualTypeOf<Batches<PacketRecord>>();
expectTypeOf(dissectCaptureFile('a.pcap', { showSecrets: true, timeoutMs: 1000 })).toEqualTypeOf<Batches<PacketRecord>>();
expectTypeOf(dissectCaptureFile('a.pcap', { allFrames: false })).toEqualTypeOf<Batches<PacketRecord>>();
expectTypeOf(dissectCaptureBatches([], { charset: 'utf8' })).toEqualTypeOf<Batches<PacketRecord>>();
expectTypeOf(dissectHexDump('', { protocols: builtInProtocols }).packets).toEqualTypeOf<PacketRecord[]>();

// Every frame, or a flag the types cannot tell: either kind of record.
expectTypeOf(dissectCaptureFile('a.pcap', { allFrames: true })).toEqualTypeOf<Batches<DissectedRecord>>();
expectTypeOf(dissectCaptureFile('a.pcap', { allFrames: some })).toEqualTypeOf<Batches<DissectedRecord>>();
expectTypeOf(dissectCaptureFile('a.pcap', options)).toEqualTypeOf<Batches<DissectedRecord>>();
expectTypeOf(dissectCaptureBatches([], { allFrames: true, protocols: builtInProtocols })).toEqualTypeOf<Batches<DissectedRecord>>();

// Options with a function whose parameter they type (`needs`): the flag is still read.
expectTypeOf(dissectCaptureFile('a.pcap', { allFrames: true, needs: (layout) => layout !== undefined })).toEqualTypeOf<
  Batches<DissectedRecord>
>();
expectTypeOf(dissectCaptureFile('a.pcap', { needs: (layout) => layout !== undefined })).toEqualTypeOf<Batches<PacketRecord>>();
