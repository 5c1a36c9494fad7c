/**
 * A display filter sees RCON secrets as the output shows them unless secrets are shown:
 * a field as its masked text, a protocol's bytes as the hex pane shows them (each hidden
 * byte a `*`). So `-Y` cannot tell a user, or the reader of a log of the command line, what
 * the output hides. Captures made on loopback by scripts/make-expert-captures.sh (tcpdump):
 * rcon-echo-lo.pcap (`varlist` echoing changeme, `rcon_password NEWSECRET9` and its echo,
 * `echo hello` with NEWSECRET9) and rcon-escape-lo.pcap (password back\slash7 echoed by
 * `varlist`, `rcon_password new<0x01>ctl` and its echo: secrets the text shows escaped).
 */
import { describe, expect, it } from 'vitest';
import { nodeJson } from '@gamequery/codec';
import { ByteSink } from '@gamequery/codec/internal';
import { compileFilter, packetJson, packetLine, packetText, walkNodes, type PacketRecord } from '@gamequery/dissect';
import { writePacketText } from '@gamequery/dissect/internal';
import { captures, dissectFile } from '../dissect/helpers.ts';

const expert = new URL('../fixtures/expert/', import.meta.url).pathname;
const ECHO = `${expert}rcon-echo-lo.pcap`;
const ESCAPE = `${expert}rcon-escape-lo.pcap`;

const frames = (ps: readonly PacketRecord[]): number[] => ps.map((p) => p.frame);
const pass = async (file: string, filter: string, showSecrets: boolean): Promise<number[]> =>
  frames((await dissectFile(file, { showSecrets, filter: compileFilter(filter, { showSecrets }) })).packets);

/** The hex pane's ASCII column of a packet, its rows joined (a text may straddle two rows). */
const paneAscii = (p: PacketRecord, showSecrets: boolean): string =>
  packetText(p, { showSecrets, hex: true })
    .split('\n')
    .filter((l) => /^[0-9a-f]{4} {2}/.test(l))
    .map((l) => l.slice(55))
    .join('');

describe('a display filter and RCON secrets', () => {
  it('finds no secret the output hides, by field, by protocol bytes or by pattern; finds them all with showSecrets', async () => {
    const probes = [
      'samp.rcon.password == "changeme"',
      'samp.rcon.password contains "change"',
      'samp.rcon.password matches "^ch"',
      'samp.rcon.command contains "NEWSECRET9"',
      'samp.rcon.output contains "NEWSECRET9"',
      'samp.rcon.output contains "changeme"',
      'samp.rcon.output matches "NEW.*9"',
      'frame contains "NEWSECRET9"',
      'udp contains "changeme"',
      'ip contains "SECRET"',
      'samp contains "NEWSECRET9"',
      'samp matches "chan.eme"',
      'samp contains 4e:45:57:53',
      'frame.number > 0 && udp contains "NEWSECRET"',
    ];
    for (const filter of probes) {
      expect(await pass(ECHO, filter, false), filter).toEqual([]);
      expect((await pass(ECHO, filter, true)).length, `${filter} --show-secrets`).toBeGreaterThan(0);
    }
    for (const filter of [
      'samp contains "slash7"',
      'samp.rcon.output contains "back\\\\slash7"',
      'samp.rcon.output contains "new\\x01ctl"',
      'samp.rcon.command contains "ctl"',
      'frame contains 01:63:74:6c',
      'samp.rcon.password == "back\\\\slash7"',
    ]) {
      expect(await pass(ESCAPE, filter, false), filter).toEqual([]);
      expect((await pass(ESCAPE, filter, true)).length, `${filter} --show-secrets`).toBeGreaterThan(0);
    }
  });

  it('passes what the output shows: the masks, the text around them, the lengths', async () => {
    // Requests 1, 5, 7; varlist's replies 2 (no secret), 3 (echoes changeme), 4 (hostname); frame 6 echoes NEWSECRET9.
    expect(await pass(ECHO, 'samp.rcon.password == "********"', false)).toEqual([1, 5, 7]);
    expect(await pass(ECHO, 'samp.rcon.command == "rcon_password ********"', false)).toEqual([5]);
    expect(await pass(ECHO, 'samp.rcon.output contains "= \\"********\\""', false)).toEqual([3, 6]);
    expect(await pass(ECHO, 'samp.rcon.output contains "hostname"', false)).toEqual([4]);
    expect(await pass(ECHO, 'samp.rcon.password.len == 8', false)).toEqual([1, 5]);
    expect(await pass(ECHO, 'samp.rcon.password.len == 10', false)).toEqual([7]);
    expect(await pass(ECHO, 'samp.rcon.password == "********"', true)).toEqual([]);
    expect(await pass(ECHO, 'samp.rcon.password == "NEWSECRET9"', true)).toEqual([7]);
  });

  it("reads a protocol's bytes as the hex pane shows them, field text as JSON shows it", async () => {
    for (const file of [ECHO, ESCAPE]) {
      for (const showSecrets of [false, true]) {
        const { packets } = await dissectFile(file, { showSecrets });
        for (const probe of ['********', 'rcon_password', 'changeme', 'NEWSECRET9', 'slash7', 'Console', 'varlist', 'SAMP', 'hello']) {
          const filter = compileFilter(`frame contains "${probe}"`, { showSecrets });
          expect(frames(packets.filter((p) => filter.matches(p))), `${file} ${probe} ${showSecrets}`).toEqual(
            frames(packets.filter((p) => paneAscii(p, showSecrets).includes(probe))),
          );
          const output = compileFilter(`samp.rcon.output contains "${probe}"`, { showSecrets });
          const shownOutput = (p: PacketRecord): boolean =>
            [...walkNodes(p.fields)].some((n) => n.abbrev === 'samp.rcon.output' && String(nodeJson(n, showSecrets).value).includes(probe));
          expect(frames(packets.filter((p) => output.matches(p))), `${file} output ${probe} ${showSecrets}`).toEqual(
            frames(packets.filter(shownOutput)),
          );
        }
      }
    }
  });

  it('leaves the bytes of a capture without RCON as they are', async () => {
    const { packets } = await dissectFile(`${captures}veth-frag.pcap`);
    for (const filter of [
      'frame contains "gamequery fixture"',
      'udp contains "SAMP"',
      'samp contains 53:41:4d:50',
      'mcquery matches "minecraft"',
    ]) {
      expect(frames(packets.filter((p) => compileFilter(filter).matches(p))), filter).toEqual(
        frames(packets.filter((p) => compileFilter(filter, { showSecrets: true }).matches(p))),
      );
      expect(
        packets.some((p) => compileFilter(filter).matches(p)),
        filter,
      ).toBe(true);
    }
  });
});

describe('secrets the text shows escaped', () => {
  // back\slash7 shows as back\\slash7 in the tree and summary, new<0x01>ctl as new\x01ctl.
  const traces = ['back\\slash7', 'back\\\\slash7', 'slash7', 'new\x01ctl', 'new\\x01ctl', '01ctl', Buffer.from('slash7').toString('hex')];

  it('are masked in every output form, and shown with showSecrets', async () => {
    const forms = (p: PacketRecord, showSecrets: boolean): string => {
      const sink = new ByteSink();
      writePacketText(p, sink, { showSecrets });
      writePacketText(p, sink, { showSecrets, hex: true });
      const pane = packetText(p, { showSecrets, hex: true })
        .split('\n')
        .filter((l) => /^[0-9a-f]{4} {2}/.test(l));
      return [
        sink.text(),
        JSON.stringify(packetJson(p, { showSecrets })),
        packetLine(p, { showSecrets }),
        p.summary,
        pane.map((l) => l.slice(6, 53).replaceAll(' ', '')).join(''),
        paneAscii(p, showSecrets),
      ].join('\n');
    };
    const masked = (await dissectFile(ESCAPE)).packets;
    expect(masked).toHaveLength(5);
    const all = masked.map((p) => forms(p, false)).join('\n');
    expect(traces.filter((t) => all.includes(t))).toEqual([]);
    expect(masked[2]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "********"  (string)"');
    expect(masked[4]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "********"  (string)"');
    const shown = (await dissectFile(ESCAPE, { showSecrets: true })).packets;
    expect(shown[2]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "back\\\\slash7"  (string)"');
    expect(shown[4]!.summary).toBe('SA:MP rcon response: "  rcon_password\\t= "new\\x01ctl"  (string)"');
  });
});
