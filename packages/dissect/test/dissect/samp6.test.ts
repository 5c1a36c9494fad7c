/**
 * dissectPayload (what `gamequery decode` shows) on the SAMP6 header proposed in open.mp #1204: labelled as
 * such, read only where the lengths fit it and not an IPv4 query (codec samp/samp6.ts).
 */
import { describe, expect, it } from 'vitest';
import { fromHex, samp } from '@gamequery/codec';
import { dissectPayload } from '@gamequery/dissect';

describe('dissectPayload and the proposed SAMP6 header', () => {
  it('labels a SAMP6 request as the proposal, with its own header fields', () => {
    // "SAMP6", ::1, port 7777 LE, 'r'
    const d = dissectPayload(fromHex(`53414d5036${'00'.repeat(15)}01611e72`));
    expect(d).toMatchObject({
      protocol: 'samp',
      direction: 'request',
      message: 'rules',
      layout: 'samp.rules.request (proposed SAMP6 header)',
    });
    expect(d.summary).toBe('SA:MP rules request [proposed SAMP6 header]');
    expect(d.fields.map((n) => n.abbrev)).toEqual(['samp.magic', 'samp.server_ip6', 'samp.server_port', 'samp.opcode']);
  });

  it('reads an IPv4 rules request to 54.1.2.3 as one', () => {
    const d = dissectPayload(samp.rulesRequest.encode({ serverIp: '54.1.2.3', serverPort: 7777 }));
    expect(d).toMatchObject({ message: 'rules', layout: 'samp.rules.request', value: { serverIp: '54.1.2.3' } });
  });
});
