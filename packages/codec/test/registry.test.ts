import { describe, expect, it } from 'vitest';
import { fieldRegistry, layouts, type Field } from '@gamequery/codec';

/**
 * Every abbreviation released for the messages the codec declares: public API, added to and never
 * renamed (docs/declaring-protocols.md, "Field names").
 */
const released = `
samp.magic samp.server_ip samp.server_port samp.opcode
samp.info.password samp.info.players samp.info.max_players
samp.info.hostname samp.info.hostname.len samp.info.gamemode samp.info.gamemode.len samp.info.language samp.info.language.len
samp.rules.count samp.rule samp.rule.name samp.rule.name.len samp.rule.value samp.rule.value.len
samp.clients.count samp.client samp.client.name samp.client.name.len samp.client.score
samp.players.count samp.player samp.player.id samp.player.name samp.player.name.len samp.player.score samp.player.ping
samp.rcon.password samp.rcon.password.len samp.rcon.command samp.rcon.command.len samp.rcon.output samp.rcon.output.len
samp.ping.nonce
samp.omp.discord samp.omp.discord.len samp.omp.banner_light samp.omp.banner_light.len samp.omp.banner_dark samp.omp.banner_dark.len samp.omp.logo samp.omp.logo.len
samp.response_in samp.response_to samp.time
vcmp.magic vcmp.server_ip vcmp.server_port vcmp.opcode
vcmp.info.version vcmp.info.password vcmp.info.players vcmp.info.max_players vcmp.info.hostname vcmp.info.hostname.len
vcmp.info.gamemode vcmp.info.gamemode.len vcmp.info.map vcmp.info.map.len
vcmp.clients.count vcmp.client vcmp.client.name vcmp.client.name.len
vcmp.ping.nonce vcmp.response_in vcmp.response_to vcmp.time
mcquery.magic mcquery.type mcquery.session_id mcquery.token mcquery.padding
mcquery.handshake.token
mcquery.basic.motd mcquery.basic.gametype mcquery.basic.map mcquery.basic.num_players mcquery.basic.max_players mcquery.basic.host_port mcquery.basic.host_ip
mcquery.full.splitnum mcquery.full.kv mcquery.full.key mcquery.full.value mcquery.full.players mcquery.full.player
mcquery.response_in mcquery.response_to mcquery.time
samp.malformed vcmp.malformed mcquery.malformed
`
  .trim()
  .split(/\s+/);

/** Abbreviations one layout declares, in order (a header field appears once per layout). */
function abbrevsOf(fields: readonly Field[]): string[] {
  return fields.flatMap((f): string[] => {
    switch (f.kind) {
      case 'string':
        return 'prefix' in f.size ? [`${f.abbrev}.len`, f.abbrev] : [f.abbrev];
      case 'group':
        return [f.abbrev, ...abbrevsOf(f.fields)];
      case 'list':
        return [
          ...(f.count ? [f.count.abbrev] : []),
          ...(f.flat ? [] : [f.entry.abbrev]),
          ...abbrevsOf(f.entry.fields),
          ...(f.until ? [f.until.abbrev] : []),
        ];
      default:
        return [f.abbrev];
    }
  });
}

describe('field registry', () => {
  it('holds every released abbreviation', () => {
    const names = new Set(fieldRegistry.map((f) => f.abbrev));
    expect(released.filter((a) => !names.has(a))).toEqual([]);
  });

  it('lists each abbreviation once', () => {
    const names = fieldRegistry.map((f) => f.abbrev);
    expect(names.length).toBe(new Set(names).size);
  });

  it.each(fieldRegistry.map((f) => [f.abbrev, f] as const))('%s is well-formed and carries a label and type', (abbrev, f) => {
    expect(abbrev).toMatch(/^[a-z0-9]+(\.[a-z0-9_]+)+$/);
    expect(abbrev.startsWith(`${f.protocol}.`)).toBe(true);
    expect(f.label.length).toBeGreaterThan(0);
    expect(f.type).toMatch(/^FT_/);
  });

  it.each(layouts.map((l) => [l.id, l] as const))('%s uses each abbreviation once, all under its protocol, all registered', (_, l) => {
    const names = abbrevsOf(l.fields);
    expect(names.length).toBe(new Set(names).size);
    const registered = new Set(fieldRegistry.map((f) => f.abbrev));
    for (const a of names) {
      expect(a.startsWith(`${l.protocol}.`), a).toBe(true);
      expect(registered.has(a), a).toBe(true);
    }
  });

  it('records the byte order of multi-byte integers and the value table of opcodes', () => {
    const by = Object.fromEntries(fieldRegistry.map((f) => [f.abbrev, f]));
    expect(by['samp.server_port']).toMatchObject({ type: 'FT_UINT16', endian: 'le' });
    expect(by['mcquery.token']).toMatchObject({ type: 'FT_INT32', endian: 'be' });
    expect(by['mcquery.basic.host_port']).toMatchObject({ type: 'FT_UINT16', endian: 'le' });
    expect(by['samp.opcode']!.values![0x69]).toBe('Information');
    expect(by['samp.response_in']).toMatchObject({ type: 'FT_FRAMENUM', generated: true });
  });
});
