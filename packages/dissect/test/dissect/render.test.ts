import { describe, expect, it } from 'vitest';
import { dissectHexDump, hexPane, packetJson, packetLine, packetText } from '@gamequery/dissect';
import { captureFiles, captures, dissectFile } from './helpers.ts';

// 53 41 4d 50 7f 00 00 01 61 1e 78 | 05 00 "wrong" | 07 00 "players"
const rcon = '53414d507f000001611e78050077726f6e670700706c6179657273';

describe('rendering', () => {
  const [p] = dissectHexDump(rcon).packets;

  it('masks RCON passwords in text and JSON unless asked', () => {
    const text = packetText(p!);
    expect(text).toContain('Password: ********');
    expect(text).not.toContain('wrong');
    expect(JSON.stringify(packetJson(p!))).not.toContain('wrong');
    expect(packetText(p!, { showSecrets: true })).toContain('Password: wrong');
  });

  it('prints tshark -V-like lines with enumerations and generated items', () => {
    const text = packetText(p!).split('\n');
    expect(text[0]).toMatch(/^Frame 1: - 0\.0\.0\.0:0 → 0\.0\.0\.0:0 SA:MP rcon request: players$/);
    expect(text).toContain('    Opcode: x (RCON command) (0x78)');
    expect(text).toContain('    [No response: end of input]'.replace('end of input', p!.unanswered!));
  });

  it('prints only the selected fields, like tshark -T fields -e', () => {
    expect(
      packetText(p!, { fields: ['samp.rcon.command'] })
        .split('\n')
        .slice(1),
    ).toEqual(['    samp.rcon.command: players']);
  });

  it('marks the bytes of a selected field in the hex pane', () => {
    const lines = packetText(p!, { hex: true, fields: ['samp.rcon.command'] }).split('\n');
    const pane = lines.slice(lines.indexOf('') + 1);
    // The password's bytes are masked in the pane as in the tree.
    expect(pane).toEqual([
      '0000  53 41 4d 50 7f 00 00 01 61 1e 78 05 00 ** ** **  SAMP....a.x..***',
      '0010  ** ** 07 00 [70 6c 61 79 65 72 73]                 **..[players]',
    ]);
    const clear = packetText(p!, { hex: true, showSecrets: true }).split('\n');
    expect(clear.at(-1)).toBe('0010  6e 67 07 00 70 6c 61 79 65 72 73                 ng..players');
  });

  it('draws an unmarked pane like tshark -x', () => {
    expect(hexPane(Uint8Array.of(0x53, 0x41, 0x4d, 0x50))).toEqual(['0000  53 41 4d 50                                      SAMP']);
  });
});

describe('packetLine (NDJSON)', () => {
  it.each(captureFiles)('%s: every line equals the JSON of the packet, and the fast path wrote the clean ones', async (name) => {
    const { packets } = await dissectFile(`${captures}${name}`);
    let fast = 0;
    for (const p of packets) {
      expect(packetLine(p)).toBe(JSON.stringify(packetJson(p)));
      expect(packetLine(p, { fields: ['samp.opcode'] })).toBe(JSON.stringify(packetJson(p, { fields: ['samp.opcode'] })));
      if (p.fieldsJson !== undefined) {
        fast++;
        expect(p.malformed).toBeUndefined();
      }
      // A packet that decoded cleanly and holds no secret always takes the fast path.
      if (!p.malformed && p.warnings.length === 0 && p.layout !== 'samp.rcon.request') expect(p.fieldsJson).toBeDefined();
    }
    if (packets.some((p) => !p.malformed)) expect(fast).toBeGreaterThan(0);
  });

  it('writes an RCON request on the fast path masked, and in clear only when asked, whichever way it was written', () => {
    const [masked] = dissectHexDump(rcon).packets;
    expect(masked!.fieldsJson).toContain('"value":"********"');
    expect(masked!.fieldsJson).not.toContain('wrong');
    expect(packetLine(masked!)).not.toContain('wrong');
    // Written masked, rendered in clear: from the tree.
    expect(packetLine(masked!, { showSecrets: true })).toContain('"value":"wrong"');
    const [clear] = dissectHexDump(rcon, { showSecrets: true }).packets;
    expect(clear!.fieldsJson).toContain('"value":"wrong"');
    expect(packetLine(clear!, { showSecrets: true })).toBe(packetLine(masked!, { showSecrets: true }));
    // Written in clear, rendered masked: from the tree, never the clear JSON.
    expect(packetLine(clear!)).toBe(packetLine(masked!));
  });
});
