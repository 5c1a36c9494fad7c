/**
 * The public surface of @gamequery/codec: every entry of its `exports` map and the runtime names
 * each one exports, sorted. A name added to or taken from an entry changes a list here, so
 * that the change is a decision (and a line of the diff), not a side effect of an `export *`.
 * The main entry stays small (at most 60 names: what decoding and encoding packets takes); the
 * declaration language is `/define`; `/internal` is not API and not listed (no promise is made
 * of it), only held to being there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const surface: Record<string, readonly string[]> = {
  '@gamequery/codec': [
    'BadMagicError',
    'CodecError',
    'InvalidValueError',
    'LengthOutOfRangeError',
    'TruncatedError',
    'UnexpectedValueError',
    'UnknownOpcodeError',
    'UnrecognizedPacketError',
    'builtInProtocols',
    'charsetChoices',
    'charsets',
    'decodePacket',
    'encodePacket',
    'expertInfo',
    'expertInfos',
    'fieldRegistry',
    'fromHex',
    'identify',
    'isCodecError',
    'layoutFor',
    'layouts',
    'mcquery',
    'mcqueryProtocol',
    'messages',
    'nodeJson',
    'protocolSet',
    'recognize',
    'registryOf',
    'samp',
    'sampProtocol',
    'signatureOf',
    'toHex',
    'valueFromJson',
    'valueToJson',
    'vcmp',
    'vcmpProtocol',
  ],
  '@gamequery/codec/define': [
    'bool',
    'bytes',
    'constant',
    'countedList',
    'cstring',
    'decimalCstring',
    'declareExperts',
    'defineLayout',
    'defineProtocol',
    'fixedString',
    'group',
    'i32be',
    'i32le',
    'ipv4',
    'magic',
    'prefixedString',
    'terminatedList',
    'u16be',
    'u16le',
    'u32be',
    'u32le',
    'u8',
    'warning',
  ],
  '@gamequery/codec/pairing': ['QueryPairer', 'pairingPart', 'unmatchedExperts'],
  '@gamequery/codec/rx': ['QueryPairer', 'pairQueries', 'pairingPart', 'unmatchedExperts'],
  '@gamequery/codec/node': [
    'AbortedError',
    'BadReplyError',
    'ClientClosedError',
    'DeadlineError',
    'FLAVOR_RULES',
    'FLOOD_SLOT_MS',
    'INVALID_RCON_PASSWORD',
    'MAX_CHALLENGES',
    'MAX_LISTED_PLAYERS',
    'NoReplyError',
    'OMP_DISCORD_MAX',
    'OMP_URL_MAX',
    'QueryClient',
    'QueryError',
    'RconSilenceError',
    'ResolveError',
    'SPLITNUM',
    'SendError',
    'SourceLimiter',
    'StateError',
    'TOKEN_PURGE_MS',
    'TargetError',
    'UnreachableError',
    'WrongPasswordError',
    'canonicalAddress',
    'defaultLimits',
    'defaultPorts',
    'defaultRules',
    'flavorOfRules',
    'flavors',
    'infoCaps',
    'isLoopback',
    'minecraftResponder',
    'ompFormOfFlavor',
    'openmpEchoOpcodes',
    'openmpOpcodes',
    'parseServer',
    'parseState',
    'ping',
    'plainAddress',
    'queryMinecraft',
    'querySamp',
    'queryVcmp',
    'rcon',
    'resolveServer',
    'samp037Opcodes',
    'sampResponder',
    'showServer',
    'startEmulator',
    'vanillaToken',
    'vcmpOpcodes',
    'vcmpResponder',
    'withClient',
  ],
  '@gamequery/codec/client': [
    'AbortedError',
    'BadReplyError',
    'ClientClosedError',
    'DeadlineError',
    'FLAVOR_RULES',
    'NoReplyError',
    'QueryClient',
    'QueryError',
    'RconSilenceError',
    'ResolveError',
    'SendError',
    'TargetError',
    'UnreachableError',
    'WrongPasswordError',
    'canonicalAddress',
    'defaultPorts',
    'flavorOfRules',
    'ompFormOfFlavor',
    'parseServer',
    'ping',
    'queryMinecraft',
    'querySamp',
    'queryVcmp',
    'rcon',
    'showServer',
    'withClient',
  ],
  '@gamequery/codec/emulator': [
    'FLOOD_SLOT_MS',
    'INVALID_RCON_PASSWORD',
    'MAX_CHALLENGES',
    'MAX_LISTED_PLAYERS',
    'OMP_DISCORD_MAX',
    'OMP_URL_MAX',
    'SPLITNUM',
    'SourceLimiter',
    'StateError',
    'TOKEN_PURGE_MS',
    'defaultLimits',
    'defaultRules',
    'flavors',
    'infoCaps',
    'isLoopback',
    'minecraftResponder',
    'openmpEchoOpcodes',
    'openmpOpcodes',
    'parseState',
    'plainAddress',
    'resolveServer',
    'samp037Opcodes',
    'sampResponder',
    'startEmulator',
    'vanillaToken',
    'vcmpOpcodes',
    'vcmpResponder',
  ],
  '@gamequery/codec/export': ['exportKaitai', 'exportWireshark', 'wiresharkExpertAbbrev', 'wiresharkPorts'],
};

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };

describe('the public surface', () => {
  it('lists every entry of the exports map: the public ones here, and the internal one', () => {
    const entries = Object.keys(manifest.exports)
      .filter((k) => k !== './package.json')
      .map((k) => `@gamequery/codec${k.slice(1)}`);
    expect(entries.sort()).toEqual([...Object.keys(surface), '@gamequery/codec/internal'].sort());
  });

  it('keeps the main entry at most 60 names', async () => {
    expect(Object.keys(await import('@gamequery/codec')).length).toBeLessThanOrEqual(60);
  });

  it.each(Object.keys(surface))('exports exactly the listed runtime names from %s', async (entry) => {
    const names = Object.keys((await import(entry)) as object).sort();
    expect(names).toEqual(surface[entry]);
  });

  it('has the internal entry, which the dissector and the CLI import', async () => {
    const internal = (await import('@gamequery/codec/internal')) as Record<string, unknown>;
    expect(typeof internal['internals']).toBe('function');
  });
});
