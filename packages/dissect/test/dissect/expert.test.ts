/**
 * Warnings in the text output (tshark's expert items), and Minecraft replies without their
 * request, on captures made on loopback by scripts/make-expert-captures.sh (tcpdump) and
 * hex dumps of their payloads (tshark -T fields -e udp.payload | xxd -r -p | xxd).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromHex, mcqueryProtocol } from '@gamequery/codec';
import { ByteSink } from '@gamequery/codec/internal';
import { dissectHexDump, packetJson, packetLine, packetText, type PacketRecord } from '@gamequery/dissect';
import { writePacketText } from '@gamequery/dissect/internal';
import { dissectCaptureFile } from '@gamequery/dissect/node';
import { dissectFile } from './helpers.ts';

const dir = new URL('../fixtures/expert/', import.meta.url).pathname;
/** The shape rule the Minecraft query declaration gives a reply read without its request. */
const minecraftReplyShape = (bytes: Uint8Array): string | undefined => mcqueryProtocol.magicless?.shape?.(bytes);
const captures = new URL('../fixtures/captures/', import.meta.url).pathname;

const written = (p: PacketRecord): string => {
  const sink = new ByteSink();
  writePacketText(p, sink);
  return sink.text();
};
const NOT_SEEN =
  '    [Expert Info (Warning/Sequence): Minecraft query reply whose request was not seen: read by its own bytes (its shape, or --protocol), not paired with a request]';

describe('warnings in text output', () => {
  it('are expert items under the packet, the same on the compiled path and the tree path', async () => {
    const { packets } = await dissectFile(`${dir}expert-lo.pcap`);
    const byFrame = new Map(packets.map((p) => [p.frame, p]));
    const expected: Record<number, string> = {
      2: '    [Expert Info (Warning/Malformed): samp.info.password: flag byte is 2, expected 0 or 1]',
      4: '    [Expert Info (Warning/Malformed): samp.rules.count: 3 entries declared, 2 present before the end of the message]',
      6: '    [Expert Info (Warning/Malformed): samp.clients.count: 2 entries declared, 1 present before the end of the message]',
    };
    for (const [frame, line] of Object.entries(expected)) {
      const p = byFrame.get(Number(frame))!;
      // Written before its tree is built: the layout's compiled text emitter.
      expect((p as { treeSource?: unknown }).treeSource).toBeDefined();
      const fast = written(p).split('\n');
      expect(fast.at(-2)).toBe(line);
      expect(fast.at(-3)).toMatch(/^ {4}\[Time: 0\.000\d+ seconds\]$/);
      // The tree path gives the same lines.
      expect(packetText(p).split('\n')).toEqual(fast.slice(0, -1));
      expect(packetJson(p)['warnings']).toHaveLength(1);
    }
    // Requests have none.
    for (const frame of [1, 3, 5]) expect(written(byFrame.get(frame)!)).not.toContain('Expert Info');
  });

  it('adds nothing to clean packets', async () => {
    const { packets } = await dissectFile(`${captures}lo-us.pcap`);
    for (const p of packets) expect(packetText(p)).not.toContain('Expert Info');
  });
});

describe('Minecraft replies without their request', () => {
  it('are dissected from a capture that lacks the requests, with a warning', async () => {
    const { packets } = await dissectFile(`${dir}expert-lo.pcap`);
    const mc = packets.filter((p) => p.protocol === 'mcquery');
    expect(mc.map((p) => [p.frame, p.layout])).toEqual([
      [7, 'mcquery.handshake.response'],
      [8, 'mcquery.basic.response'],
      [9, 'mcquery.full.response'],
    ]);
    for (const p of mc) {
      expect(p.requestIn).toBeUndefined();
      expect(p.warnings.map((w) => w.field)).toEqual(['mcquery.response_to']);
      expect(written(p).split('\n').at(-2)).toBe(NOT_SEEN);
    }
    expect(mc[0]!.summary).toBe('Minecraft query handshake response: token -1234567');
    expect(mc[1]!.summary).toBe('Minecraft query basic response: "Mid-conversation" 3/20');
  });

  it('are dissected from an xxd dump of their payloads, one packet per dump', () => {
    const d = dissectHexDump(readFileSync(`${dir}mc-replies.xxd.txt`, 'utf8'));
    expect(d.packets.map((p) => p.layout)).toEqual(['mcquery.handshake.response', 'mcquery.basic.response', 'mcquery.full.response']);
    expect(d.packets.every((p) => p.warnings.length === 1 && !p.malformed)).toBe(true);
  });

  it('are not made up from other UDP: DNS, SA:MP, unknown messages', async () => {
    for (const name of ['dns-lo.pcap', 'unknown-lo.pcap', 'lo-us.pcap']) {
      const { packets } = await dissectFile(`${captures}${name}`);
      expect(packets.filter((p) => p.warnings.some((w) => w.field === 'mcquery.response_to'))).toEqual([]);
    }
    const dns = '123481800001000100000000076578616d706c6503636f6d0000010001c00c000100010000012c00045db8d822';
    expect(minecraftReplyShape(fromHex(dns))).toBeUndefined();
  });

  it('cut short, need --protocol: every payload without --port, only those ports with it', () => {
    const text = readFileSync(`${dir}mc-basic-cut.xxd.txt`, 'utf8');
    expect(dissectHexDump(text).packets).toEqual([]);
    const [p] = dissectHexDump(text, { decodeAs: { protocol: 'mcquery', ports: [] } }).packets;
    expect(p!.layout).toBe('mcquery.basic.response');
    expect(p!.malformed?.field).toBe('mcquery.basic.map');
    expect(packetText(p!).split('\n')).toContain(NOT_SEEN);
    // A port no payload of a hex dump has.
    expect(dissectHexDump(text, { decodeAs: { protocol: 'mcquery', ports: [25565] } }).packets).toEqual([]);
  });

  it('with --port, are taken as the protocol only on those ports', async () => {
    const plain = await dissectFile(`${dir}expert-lo.pcap`);
    const other = await dissectFile(`${dir}expert-lo.pcap`, { decodeAs: { protocol: 'vcmp', ports: [9999] } });
    expect(other.packets.map((p) => p.layout)).toEqual(plain.packets.map((p) => p.layout));
    const samp = await dissectFile(`${dir}expert-lo.pcap`, { decodeAs: { protocol: 'mcquery', ports: [47777] } });
    // The Minecraft port's replies, not named, are as before (by their shape).
    expect(samp.packets.filter((p) => p.src.port === 47778).map((p) => p.layout)).toEqual([
      'mcquery.handshake.response',
      'mcquery.basic.response',
      'mcquery.full.response',
    ]);
    // The dump of the cut reply (the test above) has no reply's shape.
    const cut = fromHex(
      readFileSync(`${dir}mc-basic-cut.xxd.txt`, 'utf8')
        .split('\n')
        .map((l) => l.slice(10, 49).replaceAll(' ', ''))
        .join(''),
    );
    expect(cut.length).toBe(30);
    expect(minecraftReplyShape(cut)).toBeUndefined();
  });
});

describe('minecraftReplyShape', () => {
  // The replies of the committed captures (the wiki.vg examples of codec/src/protocols/mcquery/README.md) and edge cases made from them.
  const handshake = fromHex('09000000013935313333303700');
  it('knows each reply and refuses near misses', () => {
    expect(minecraftReplyShape(handshake)).toBe('handshake');
    expect(minecraftReplyShape(handshake.subarray(0, handshake.length - 1))).toBeUndefined();
    expect(minecraftReplyShape(fromHex('0900000001393531333330373800'))).toBe('handshake');
    expect(minecraftReplyShape(fromHex('09000000013939393939393939393900'))).toBeUndefined(); // past i32
    expect(minecraftReplyShape(fromHex('09000000012d00'))).toBeUndefined();
    const basic = fromHex('000000000141204d696e6563726166742053657276657200534d5000776f726c64003200323000dd633132372e302e302e3100');
    expect(minecraftReplyShape(basic)).toBe('basic');
    const noPlayers = Uint8Array.from(basic);
    noPlayers[34] = 0x41; // numplayers "A"
    expect(minecraftReplyShape(noPlayers)).toBeUndefined();
  });
});

describe('RCON secrets echoed by replies', () => {
  // rcon-echo-lo.pcap: `varlist` with password changeme (a reply echoes it), `rcon_password NEWSECRET9` (its reply
  // echoes the new one), then `echo hello` with NEWSECRET9.
  const SECRETS = ['changeme', 'NEWSECRET9'];
  const hexOf = (s: string): string => Buffer.from(s, 'latin1').toString('hex');
  /** Every output form of a packet, as one text: tree, tree with hex pane, -e, JSON, NDJSON, summary. */
  const outputs = (p: PacketRecord, showSecrets: boolean): string => {
    const sink = new ByteSink();
    writePacketText(p, sink, { showSecrets });
    writePacketText(p, sink, { showSecrets, hex: true });
    writePacketText(p, sink, { showSecrets, fields: ['samp.rcon.output', 'samp.rcon.command'] });
    const pane = packetText(p, { showSecrets, hex: true })
      .split('\n')
      .filter((l) => /^[0-9a-f]{4} {2}/.test(l));
    // The hex pane's bytes in a row, and its ASCII column in a row (a secret may straddle two lines).
    const paneHex = pane.map((l) => l.slice(6, 53).replaceAll(' ', '')).join('');
    const paneAscii = pane.map((l) => l.slice(55)).join('');
    return [
      sink.text(),
      JSON.stringify(packetJson(p, { showSecrets })),
      packetLine(p, { showSecrets }),
      p.summary,
      paneHex,
      paneAscii,
    ].join('\n');
  };
  const leaks = (text: string): string[] => SECRETS.filter((s) => text.includes(s) || text.includes(hexOf(s)));

  it.each([
    [
      'two passes over the file',
      async (o: { showSecrets: boolean }) => {
        const out: PacketRecord[] = [];
        for await (const batch of dissectCaptureFile(`${dir}rcon-echo-lo.pcap`, o)) out.push(...batch.packets);
        return out;
      },
    ],
    ['one pass (a stream)', async (o: { showSecrets: boolean }) => (await dissectFile(`${dir}rcon-echo-lo.pcap`, o, 100)).packets],
  ])('are masked in every output form, %s, and shown with showSecrets', async (_, read) => {
    const masked = await read({ showSecrets: false });
    expect(masked).toHaveLength(8);
    // A reply that echoes nothing keeps the fast path (its tree not built); one that echoes a secret does not.
    expect((masked[3] as { treeSource?: unknown }).treeSource).toBeDefined();
    expect((masked[2] as { treeSource?: unknown }).treeSource).toBeUndefined();
    for (const p of masked) expect(leaks(outputs(p, false))).toEqual([]);
    expect(masked[2]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "********"  (string)"');
    expect(masked[5]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "********"  (string)"');
    expect(packetText(masked[5]!).split('\n')).toContain('    Output:   rcon_password\\t= "********"  (string)');
    expect(packetText(masked[3]!).split('\n')).toContain('    Output:   hostname\\t= "expert fixture"  (string)');
    const shown = await read({ showSecrets: true });
    const all = shown.map((p) => outputs(p, true)).join('\n');
    expect(SECRETS.every((s) => all.includes(s))).toBe(true);
    expect(shown[5]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "NEWSECRET9"  (string)"');
  });
});
