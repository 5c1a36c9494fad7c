/**
 * SA:MP test vectors: open.mp's `o` in its three published forms (protocols/samp/omp.ts).
 */
import { CONSTRUCTED, caseList } from '../builder.ts';
import { local, samp } from './header.ts';

const [ompCases, add] = caseList();
export { ompCases };

/* ---------------- open.mp o ---------------- */
const ompHex =
  '53 41 4D 50 7F 00 00 01 61 1E 6F 11 00 00 00 64 69 73 63 6F 72 64 2E 67 67 2F 6F 70 65 6E 6D 70 00 00 00 00 00 00 00 00 00 00 00 00';
/** An `o` reply of open.mp v1.2 (three strings), or of v1.3.1 and later (four, with the logo). */
const ompBytes = (discord: string, bannerLight: string, bannerDark: string, logo?: string) => {
  const b = samp('o')
    .str32(discord, 'samp.omp.discord')
    .str32(bannerLight, 'samp.omp.banner_light')
    .str32(bannerDark, 'samp.omp.banner_dark');
  return logo === undefined ? b : b.str32(logo, 'samp.omp.logo');
};
const ompBuilt = () => ompBytes('discord.gg/openmp', '', '', '').is(ompHex);
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'basic',
  description: 'Discord invite only, no banners or logo',
  source: 'the `o` example of packages/codec/src/protocols/samp/README.md (constructed)',
  bytes: ompBuilt(),
  value: { ...local, discord: 'discord.gg/openmp', bannerLight: '', bannerDark: '', logo: '' },
});
const url = 'https://example.com/' + 'x'.repeat(140);
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'max-urls',
  description: 'all four strings, URLs at the 160-byte cap',
  source: CONSTRUCTED,
  bytes: ompBytes('discord.gg/abc', url, url, url),
  value: { ...local, discord: 'discord.gg/abc', bannerLight: url, bannerDark: url, logo: url },
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'truncated-logo-length',
  description: 'the datagram ends inside the logo length',
  source: 'the `o` example of packages/codec/src/protocols/samp/README.md (constructed), cut by 2 bytes',
  bytes: ompBuilt().cutAt(42, 'samp.omp.logo.len'),
});

/* ---------------- open.mp o, older forms (samp/omp.ts) ---------------- */
const OMP_SRC = 'openmultiplayer/open.mp Server/Components/LegacyNetwork/Query/query.cpp';
const ECHO_SRC = `constructed after ${OMP_SRC} at d96fde3 (2022-05-31; sent by v0.0.11.2331 through v1.1.0.2612): a 15-byte \`o\` is sent back unchanged`;
const BANNERS_SRC = `constructed after ${OMP_SRC} at f145074 and 9a704f9 (sent by v1.2.0.2670 only): buildExtraServerInfoBuffer writes three u32-length strings`;
const LOGO_SRC = `constructed after ${OMP_SRC} at acc062d and 00909d0 (sent by v1.3.1.2744 and later, v1.5.8.3079 and HEAD f8058db included)`;
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'basic',
  description: 'the open.mp detection probe of v1.1 and older: header + 4 arbitrary bytes',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0x12345678, 'samp.ompecho.nonce'),
  value: { ...local, nonce: 0x12345678 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'basic',
  description: 'open.mp v1.0/v1.1 answer: the 15-byte request unchanged',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0x12345678, 'samp.ompecho.nonce'),
  value: { ...local, nonce: 0x12345678 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'nonce-zero',
  description: 'the echo probe with four zero bytes',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0, 'samp.ompecho.nonce'),
  value: { ...local, nonce: 0 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'nonce-zero',
  description: 'its echo',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0, 'samp.ompecho.nonce'),
  value: { ...local, nonce: 0 },
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'response',
  name: 'truncated-nonce',
  description: '14 bytes: the echo is cut',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0x12345678, 'samp.ompecho.nonce').cutAt(14, 'samp.ompecho.nonce'),
});
add({
  protocol: 'samp',
  message: 'ompecho',
  direction: 'request',
  name: 'truncated-nonce',
  description: '13 bytes: the nonce is cut (no open.mp version answers this)',
  source: ECHO_SRC,
  bytes: samp('o').u32be(0x12345678, 'samp.ompecho.nonce').cutAt(13, 'samp.ompecho.nonce'),
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'basic',
  description: 'open.mp v1.2.0.2670: Discord invite and both banners, no logo',
  source: BANNERS_SRC,
  bytes: ompBytes('discord.gg/openmp', 'https://example.com/light.png', 'https://example.com/dark.png'),
  value: {
    ...local,
    discord: 'discord.gg/openmp',
    bannerLight: 'https://example.com/light.png',
    bannerDark: 'https://example.com/dark.png',
  },
});
const url120 = 'https://example.com/' + 'b'.repeat(100);
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'long-discord-dropped',
  description: 'v1.2: an invite over 50 bytes is sent with length 0, banners at the 120-byte cap',
  source: BANNERS_SRC,
  bytes: ompBytes('', url120, url120),
  value: { ...local, discord: '', bannerLight: url120, bannerDark: url120 },
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'empty',
  description: 'v1.2 defaults: three empty strings (23 bytes)',
  source: BANNERS_SRC,
  bytes: ompBytes('', '', ''),
  value: { ...local, discord: '', bannerLight: '', bannerDark: '' },
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'logo',
  description: 'open.mp v1.3.1 and later: all four strings',
  source: LOGO_SRC,
  bytes: ompBytes('discord.gg/openmp', 'https://example.com/light.png', 'https://example.com/dark.png', 'https://example.com/logo.png'),
  value: {
    ...local,
    discord: 'discord.gg/openmp',
    bannerLight: 'https://example.com/light.png',
    bannerDark: 'https://example.com/dark.png',
    logo: 'https://example.com/logo.png',
  },
});
add({
  protocol: 'samp',
  message: 'ompbanners',
  direction: 'response',
  name: 'truncated-dark-banner',
  description: 'v1.2 reply cut inside the dark banner URL',
  source: BANNERS_SRC,
  bytes: ompBytes('', '', 'https://example.com/dark.png').cutAt(40, 'samp.omp.banner_dark'),
});
add({
  protocol: 'samp',
  message: 'omp',
  direction: 'response',
  name: 'empty',
  description: 'v1.3.1+ defaults: four empty strings (27 bytes)',
  source: LOGO_SRC,
  bytes: ompBytes('', '', '', ''),
  value: { ...local, discord: '', bannerLight: '', bannerDark: '', logo: '' },
});
