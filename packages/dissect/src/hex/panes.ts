/**
 * Choosing between the panes of a tshark frame.
 *
 * @module
 */

import type { HexPacket } from './types.ts';

/**
 * One packet per frame: the last `Reassembled …` pane of a frame if it has one, otherwise its
 * first buffer. Packets without panes pass through. Order is kept.
 *
 * For a TCP stream or fragmented datagram this yields, for the frame that completed the
 * reassembly, the whole message; the frames that carried earlier parts still appear on their own,
 * as tshark prints them.
 */
export function preferReassembled(packets: readonly HexPacket[]): HexPacket[] {
  const chosen = new Map<number, HexPacket>();
  const order: number[] = [];
  for (const packet of packets) {
    const current = chosen.get(packet.frame);
    if (current === undefined) {
      chosen.set(packet.frame, packet);
      order.push(packet.frame);
    } else if (packet.pane?.kind === 'reassembled') {
      chosen.set(packet.frame, packet);
    }
  }
  return order.map((frame) => chosen.get(frame) as HexPacket);
}
