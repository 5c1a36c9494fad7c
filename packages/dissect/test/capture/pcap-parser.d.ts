// Types for the parts of pcap-parser 0.2.1 (CommonJS, untyped) that the reader tests use as an oracle.
declare module 'pcap-parser' {
  import type { EventEmitter } from 'node:events';
  import type { Readable } from 'node:stream';

  /** Starts parsing a file path or a readable stream; emits 'packet', 'error' and 'end'. */
  export function parse(input: string | Readable): EventEmitter;
  const pcapParser: { parse: typeof parse };
  export default pcapParser;
}
