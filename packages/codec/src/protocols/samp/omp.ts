/**
 * open.mp `o` (docs/protocols/samp.md). SA-MP servers never answer it, so any reply identifies
 * open.mp. Three forms were published, none named in the bytes; what tells them apart is
 * which declaration the datagram's lengths add up to (openmultiplayer/open.mp,
 * `Server/Components/LegacyNetwork/Query/query.cpp`, history below):
 *
 *   form     servers                     request              reply
 *   echo     d96fde3 (2022-05-31)        15 bytes: header +   the request, unchanged;
 *            … v1.1.0.2612               4 arbitrary bytes    an 11-byte `o` is not answered
 *   banners  v1.2.0.2670 (f145074,       11 bytes (header)    header + 3 × (u32 LE length, text):
 *            9a704f9)                                         Discord invite (0 if over 50 bytes),
 *                                                             light and dark banner URL (cut to 120)
 *   logo     v1.3.1.2744 … v1.5.8.3079,  11 bytes (header)    banners + (u32 LE length, logo URL);
 *            HEAD (acc062d, 00909d0)                          URLs cut to 160
 *
 * From v1.2 on, a 15-byte `o` gets no reply (the `o` branch sits under `size == 11`).
 * A banners reply never fits the logo declaration exactly (4 bytes short) nor a logo reply
 * the banners one (4 + e bytes over); open.mp's launcher reads the logo only when more
 * than 4 bytes remain after the dark banner (openmultiplayer/launcher
 * `src-tauri/src/query.rs` build_extra_info_packet, `packet.remaining() > 4` since 48a43be,
 * still at ebeeb49), and refuses a Discord length over 50 or a URL length over 160.
 *
 *   echo:    | header (11) | nonce (4) |
 *   banners: | header (11) | a LE | discord | b LE | light URL | c LE | dark URL |
 *   logo:    | banners … | e LE | logo URL |
 *
 * A logo reply cut right after its dark banner (its last 4 + e bytes lost) is, byte for byte,
 * a complete banners reply: no length, count or terminator says more is due, so recognition
 * by lengths (and any dissector, tshark's too) takes it for one. Of the cuts that fit a
 * declaration exactly it is the only one a reply to the 11-byte `o` can be taken for (a cut
 * to 12–15 bytes reads as the echo form, which pairs only with a 15-byte request). What
 * tells them apart is the server's release (its `version` rule, {@link ompFormOf}): from one
 * that sends the logo form, such a reply is cut ({@link ompLogoCut}, warning
 * {@link OMP_LOGO_CUT}); from one of unknown release, a second reply settles it (a v1.2
 * server answers alike again, a cut is not repeated). The query client does both; the
 * decoder cannot, and raises nothing.
 */
import { declareExperts, warning, type DecodeWarning, type ExpertInfo } from '../../grammar/expert.ts';
import { defineLayout } from '../../grammar/layout.ts';
import { prefixedString, u32be } from '../../grammar/fields.ts';
import { sampHeader, sampNaming } from './header.ts';

const discord = prefixedString('discord', 'u32le', {
  abbrev: 'samp.omp.discord',
  label: 'Discord invite',
  doc: 'Sent empty when the configured invite is longer than 50 bytes',
});
const bannerLight = prefixedString('bannerLight', 'u32le', { abbrev: 'samp.omp.banner_light', label: 'Light banner URL' });
const bannerDark = prefixedString('bannerDark', 'u32le', { abbrev: 'samp.omp.banner_dark', label: 'Dark banner URL' });
const logo = prefixedString('logo', 'u32le', { abbrev: 'samp.omp.logo', label: 'Logo URL' });

/** v1.2 onwards: the 11-byte header (the request of the banners form too). */
export const ompRequest = defineLayout({
  ...sampNaming,
  message: 'omp',
  direction: 'request',
  title: 'open.mp extra information',
  doc: 'Answered by open.mp v1.2 and later (banners form up to v1.2, logo form from v1.3.1)',
  fields: sampHeader('o'),
});

/** v1.3.1 onwards: four strings. */
export const ompResponse = defineLayout({
  ...sampNaming,
  message: 'omp',
  direction: 'response',
  title: 'open.mp extra information',
  doc: 'open.mp v1.3.1.2744 and later (openmultiplayer/open.mp acc062d, 00909d0): URLs cut to 160 bytes',
  info: '{discord}',
  fields: [...sampHeader('o'), discord, bannerLight, bannerDark, logo],
});

/** v1.2: three strings, no logo. */
export const ompbannersResponse = defineLayout({
  ...sampNaming,
  message: 'ompbanners',
  direction: 'response',
  title: 'open.mp extra information (v1.2)',
  doc: 'open.mp v1.2.0.2670 (openmultiplayer/open.mp f145074, 9a704f9): no logo, banner URLs cut to 120 bytes',
  info: '{discord}',
  fields: [...sampHeader('o'), discord, bannerLight, bannerDark],
});

const echoFields = [
  ...sampHeader('o'),
  u32be('nonce', { abbrev: 'samp.ompecho.nonce', label: 'Nonce', base: 'hex', doc: 'Four arbitrary bytes, echoed with the header' }),
] as const;

/** Up to v1.1: the request, 15 bytes. */
export const ompechoRequest = defineLayout({
  ...sampNaming,
  message: 'ompecho',
  direction: 'request',
  title: 'open.mp detection (echo, v1.1 and older)',
  doc: 'open.mp from d96fde3 (2022-05-31) through v1.1.0.2612 echoes a 15-byte `o` unchanged; later servers do not answer it',
  info: 'nonce {nonce}',
  fields: echoFields,
});

/** Up to v1.1: the request echoed, byte for byte. */
export const ompechoResponse = defineLayout({
  ...sampNaming,
  message: 'ompecho',
  direction: 'response',
  title: 'open.mp detection (echo, v1.1 and older)',
  doc: 'The 15-byte request, unchanged (open.mp d96fde3 … v1.1.0.2612)',
  info: 'nonce {nonce}',
  fields: echoFields,
});

/** The `o` forms, oldest first, with the servers that send each (see the table above). */
export type OmpForm = 'echo' | 'banners' | 'logo';

/** What is known of one `o` form: its layouts, the releases that send it, its request length and caps. */
export interface OmpFormFacts {
  readonly form: OmpForm;
  /** The message name of its layouts. */
  readonly message: 'ompecho' | 'ompbanners' | 'omp';
  /** First and last open.mp release (tag) that sends it; `last` undefined: still sent. */
  readonly first: string;
  readonly last?: string;
  /** The request length a server of this form answers; any other `o` is met with silence. */
  readonly requestLength: 11 | 15;
  /** Byte caps: a longer Discord invite is sent empty, URLs are cut. */
  readonly discordMax?: number;
  readonly urlMax?: number;
  /** open.mp commits that made it (openmultiplayer/open.mp). */
  readonly commits: readonly string[];
}

/** The facts of the three `o` forms, oldest first. */
export const ompForms: readonly OmpFormFacts[] = [
  {
    form: 'echo',
    message: 'ompecho',
    first: 'v0.0.11.2331',
    last: 'v1.1.0.2612',
    requestLength: 15,
    commits: ['d96fde3c5a2056afca950a24723071c26dd188c6'],
  },
  {
    form: 'banners',
    message: 'ompbanners',
    first: 'v1.2.0.2670',
    last: 'v1.2.0.2670',
    requestLength: 11,
    discordMax: 50,
    urlMax: 120,
    commits: ['f1450744ece30f114748787ae9cc0f3b70268574', '9a704f929865aa399a5e36e2c5e42424ffe97b19'],
  },
  {
    form: 'logo',
    message: 'omp',
    first: 'v1.3.1.2744',
    requestLength: 11,
    discordMax: 50,
    urlMax: 160,
    commits: ['acc062d4571ee4123e122ee27ac733d191213c1f', '00909d07f62a608172ad242ca04fdcc2cb200851'],
  },
];

/** `1.2.0.2670` (or `omp 1.2.0.2670`, the `version` rule) as numbers; undefined if it is not one. */
export function ompVersionOf(text: string): readonly number[] | undefined {
  const m = /^(?:omp\s+)?v?(\d+)\.(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)] : undefined;
}

/**
 * The `o` form an open.mp release sends, by its version (`1.1.0.2612`, `omp 1.4.0.2779`):
 * before 1.2 the echo, 1.2.x banners, from 1.3 the logo form. Undefined if `version` is not one.
 */
export function ompFormOf(version: string): OmpFormFacts | undefined {
  const v = ompVersionOf(version);
  if (!v) return undefined;
  const [major, minor] = v as [number, number];
  const form: OmpForm = major < 1 || (major === 1 && minor < 2) ? 'echo' : major === 1 && minor === 2 ? 'banners' : 'logo';
  return ompForms.find((f) => f.form === form);
}

/**
 * A reply in the banners form (no logo) from a server whose release sends the logo form: the
 * logo form cut after its dark banner (see the top of this file). Raised by the query client,
 * which knows the release from the rules; never by the decoder, which cannot tell.
 */
export const OMP_LOGO_CUT: ExpertInfo<'omp-logo-cut'> = {
  code: 'omp-logo-cut',
  group: 'Malformed',
  severity: 'Warning',
  summary: '{field}: absent, but open.mp v1.3.1 and later send the logo: a reply cut after its dark banner',
};

/** open.mp `o`'s own expert items (not raised by the decoder: see {@link OMP_LOGO_CUT}). */
export const ompExperts: readonly ExpertInfo[] = declareExperts([OMP_LOGO_CUT]);

/**
 * The {@link OMP_LOGO_CUT} warning for an `o` reply read as `message` (`ompbanners`, `omp`…), `length`
 * bytes long, from a server whose release sends `form` (undefined: not known); undefined where the
 * reply is what that release sends, or the release is not known (then only a second reply tells).
 */
export function ompLogoCut(message: string, length: number, form: OmpForm | undefined): DecodeWarning | undefined {
  return message === 'ompbanners' && form === 'logo' ? warning(OMP_LOGO_CUT, 'samp.omp.logo.len', length) : undefined;
}
