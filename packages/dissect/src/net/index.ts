export { formatIPv4, formatIPv6 } from './address.ts';
export { UdpDecoder } from './decoder.ts';
export type { UdpDecoderOptions } from './decoder.ts';
export { findNetworkLayer, LINKTYPE } from './link.ts';
export type { NetworkLocation } from './link.ts';
export { DEFAULT_REASSEMBLY_LIMITS, PIECE_COST, Reassembler } from './reassembly.ts';
export type { AddResult, DroppedDatagram, DropReason, Fragment, Reassembled, ReassemblyLimits, ReassemblyStats } from './reassembly.ts';
export type { DecodedFrame, Endpoint, FrameInput, Reassembly, SkippedFrame, SkipReason, UdpDatagram } from './types.ts';
