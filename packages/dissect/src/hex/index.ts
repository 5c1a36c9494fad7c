export { parseHexDump, HexDumpParser } from './parse.ts';
export { bytesFromHexDump, HexDumpError } from './error.ts';
export { preferReassembled } from './panes.ts';
export type {
  HexDumpDiagnostic,
  HexDumpDiagnosticCode,
  HexDumpFormat,
  HexDumpOptions,
  HexDumpResult,
  HexDumpSeverity,
  HexPacket,
  HexPane,
  HexPaneKind,
} from './types.ts';
