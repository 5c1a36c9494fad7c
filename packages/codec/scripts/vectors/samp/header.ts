/** The SA:MP query header of every SA:MP case, built by `B` with its fields named. */
import { B } from '../builder.ts';

export const samp = (op: string, ip = '127.0.0.1', port = 7777) =>
  new B().ascii('SAMP', 'samp.magic').ip(ip, 'samp.server_ip').u16le(port, 'samp.server_port').u8(op.charCodeAt(0), 'samp.opcode');
/** The address and port of `samp(op)`'s default header, as decoded. */
export const local = { serverIp: '127.0.0.1', serverPort: 7777 };
