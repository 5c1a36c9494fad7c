/** The SA:MP query header of every SA:MP (and VC:MP bad-magic) case, built by `B`. */
import { B } from '../builder.ts';

export const samp = (op: string, ip = [127, 0, 0, 1], port = 7777) =>
  new B()
    .ascii('SAMP')
    .raw(...ip)
    .u16le(port)
    .ascii(op);
/** The address and port of `samp(op)`'s default header, as decoded. */
export const local = { serverIp: '127.0.0.1', serverPort: 7777 };
