/**
 * What a query asks, in which order, and what its silences mean.
 * Each procedure works through a {@link Session} of the query client; the sending,
 * pairing, retries and deadlines are the client's. What they ask for and resolve to is
 * typed in results.ts; reading a reply into a result is replies.ts.
 *
 *   SA:MP     i, r and o together; then the player list: none above 100 players,
 *             `c` on open.mp (detected by its `o` reply or its rules), else `d`
 *             and `c` when `d` is not answered. `o` goes out as 11 bytes (v1.2 and later
 *             answer it); a server whose `version` rule names v1.1 or older is asked the
 *             15-byte echo form instead, as is an open.mp server silent to the 11 bytes.
 *             An `o` reply without the logo (the v1.2 form) is also exactly a logo reply
 *             cut after its dark banner (samp/omp.ts): from a release that sends the logo
 *             it is cut and asked again, from one of unknown release asked again to confirm
 *   VC:MP     i, then c (names only) unless more than 100 players
 *   Minecraft handshake → stat; when the stat is not answered (token expired),
 *             one more handshake and stat
 *   ping      `p` with a fresh random nonce per attempt
 *   RCON      `x`; every line until the quiet period; "Invalid RCON password." and
 *             silence have their own errors
 */
import { randomInt } from 'node:crypto';
import { CodecError } from '../errors.ts';
import { textCodec, type Charset } from '../grammar/charset.ts';
import type { Layout } from '../grammar/layout.ts';
import { infoRequest, infoResponse } from '../protocols/samp/info.ts';
import { rulesRequest, rulesResponse } from '../protocols/samp/rules.ts';
import { MAX_LISTED_PLAYERS, clientsRequest, clientsResponse } from '../protocols/samp/clients.ts';
import { playersRequest, playersResponse } from '../protocols/samp/players.ts';
import { pingRequest } from '../protocols/samp/ping.ts';
import { ompLogoCut, ompRequest, ompResponse, ompbannersResponse, ompechoRequest, type OmpForm } from '../protocols/samp/omp.ts';
import { INVALID_RCON_PASSWORD, rconRequest, rconResponse } from '../protocols/samp/rcon.ts';
import { vcmpInfoRequest, vcmpInfoResponse } from '../protocols/vcmp/info.ts';
import { vcmpClientsRequest, vcmpClientsResponse } from '../protocols/vcmp/clients.ts';
import { vcmpPingRequest } from '../protocols/vcmp/ping.ts';
import { vcmpProtocol } from '../protocols/vcmp/protocol.ts';
import { handshakeRequest } from '../protocols/mcquery/handshake.ts';
import { basicRequest, basicResponse } from '../protocols/mcquery/basic.ts';
import { fullRequest, fullResponse } from '../protocols/mcquery/full.ts';
import { BadReplyError, QueryError, RconSilenceError, WrongPasswordError } from './errors.ts';
import type { DecodedDatagram } from '../pairing/types.ts';
import type { CallOptions, Outcome, RequestOptions, Session } from './session.ts';
import { headerOf, noReply, required, stripHeader, value, where, type Reply } from './replies.ts';
import type {
  MinecraftQueryResult,
  PingResult,
  RconResult,
  SampInfo,
  SampParts,
  SampPlayer,
  OmpExtras,
  SampQueryResult,
  VcmpInfo,
  VcmpParts,
  VcmpQueryResult,
} from './results.ts';
import { flavorOfRules, ompFormOfFlavor, withOmpReply } from './flavor.ts';

export type {
  SampParts,
  VcmpParts,
  DetectedText,
  SampInfo,
  SampPlayer,
  OmpExtras,
  SampQueryResult,
  VcmpInfo,
  VcmpQueryResult,
  MinecraftInfo,
  MinecraftQueryResult,
  PingResult,
  RconResult,
} from './results.ts';

/**
 * For parts a result can do without: the reply, undefined on silence, errors thrown. Only
 * lists can be cut short and still read, and every list is such a part: when the
 * last attempt's reply was cut, `notes` says so instead of "no reply".
 */
function optional(o: Outcome, request: string, notes: string[]): Reply | undefined {
  if (o.kind === 'error') throw o.error;
  if (wasCut(o)) notes.push(`\`${request}\`: ${o.reason} to the last of ${o.attempts} attempts, not used`); // instead of "no reply to …"
  return o.kind === 'reply' ? o : undefined;
}

const wasCut = (o: Outcome): o is Extract<Outcome, { kind: 'unanswered' }> => o.kind === 'unanswered' && o.cut !== undefined;

const SAMP_HINT =
  'is the server running, is the port its game port, and is the query enabled (server.cfg `query 1`, open.mp `enable_query`)?';
const VCMP_HINT = `is the server running, and is the port its game port (default ${vcmpProtocol.defaultPort})?`;
const MINECRAFT_HINT = 'is enable-query=true and query.port correct?';

/* ---------- SA:MP / open.mp ---------- */

export async function sampQuery(s: Session, options: CallOptions & SampParts): Promise<SampQueryResult> {
  const header = headerOf(s);
  const charset = options.charset ?? 'auto';
  const never: Promise<Outcome> = Promise.resolve({ kind: 'unanswered', reason: 'not asked', attempts: 0 });
  // Identical requests to one server are indistinguishable: the opcode is the lock key.
  const ask = (layout: Layout<{ serverIp: string; serverPort: number }>, op: string, o: RequestOptions = {}): Promise<Outcome> => {
    const bytes = layout.encode(header);
    return s.request(() => bytes, { lockKey: op, ...o });
  };
  const infoP = ask(infoRequest, 'i');
  const rulesP = options.rules === false ? never : ask(rulesRequest, 'r');
  // `o` goes out with the others, once: SA-MP never answers it, and its reply identifies open.mp.
  let probed: Outcome | undefined;
  const probeP = (options.omp === false ? never : ask(ompRequest, 'o', { retries: 0 })).then((o) => (probed = o));

  const i = required(s, 'i', await infoP, SAMP_HINT);
  const info: SampInfo = stripHeader(value(s, i, infoResponse, charset, 'i'));
  const notes: string[] = [];

  const rAsked = await rulesP;
  const r = optional(rAsked, 'r', notes);
  let rules: Record<string, string> | undefined;
  if (r) rules = Object.fromEntries(value(s, r, rulesResponse, charset, 'r').rules.map((x) => [x.name, x.value]));
  else if (options.rules !== false && !wasCut(rAsked)) notes.push('no reply to `r`: no rules');

  // open.mp's rules say so; SA-MP's `version` rule says otherwise; without either, the `o` probe decides.
  let flavor = flavorOfRules(rules);
  const rulesSayOmp = flavor.name === 'openmp';
  const rulesSaySamp = flavor.name === 'samp-0.3.7' || flavor.name === 'samp';
  // The `o` form the server's release sends: v1.1 and older answer only the 15-byte echo form (samp/omp.ts).
  const form = ompFormOfFlavor(flavor);
  const echoes = form === 'echo';
  // A fresh nonce per attempt, as for `p`: a retry must not look like the reply to the first one.
  const askEcho = (): Promise<Outcome> =>
    s.request(() => ompechoRequest.encode({ ...header, nonce: randomInt(0, 0x1_0000_0000) }), { lockKey: 'o' });
  // From a release that sends the logo, a reply without it is the logo form cut after its dark
  // banner (it decodes as the v1.2 form: samp/omp.ts): cut, and asked again.
  const logoCut = (r: DecodedDatagram<unknown>) => ompLogoCut(r.message, r.datagram.bytes.length, form);
  const askOmp = (): Promise<Outcome> => ask(ompRequest, 'o', { cut: logoCut });
  // The probe went out before the rules told the release; its reply is judged now.
  const usable = (o: Outcome | undefined): Reply | undefined => (o?.kind === 'reply' && !logoCut(o.exchange.responses[0]!) ? o : undefined);
  // Where the release is not known, a reply without the logo is the v1.2 form or the logo form cut
  // after its dark banner: asked once more, a v1.2 server answers alike and a cut is not repeated.
  // The second reply is the answer, in either form; without one, neither is used.
  const confirmed = async (o: Reply | undefined): Promise<Reply | undefined> => {
    if (!o || form === 'banners' || o.exchange.responses[0]!.packet.layout !== ompbannersResponse) return o;
    const again = await askOmp();
    const reply = optional(again, 'o', notes);
    if (!reply && !wasCut(again))
      notes.push(
        '`o`: answered once without a logo, not again when asked: not used (a logo reply cut after its dark banner reads the same)',
      );
    return reply;
  };
  // Judged here if it came before the rules; a later one only if the rules said SA-MP (below).
  const probedEarly = probed;
  let omp = usable(probed);
  let echoed = false;
  if (!omp && !rulesSaySamp && options.omp !== false) {
    omp = usable(optional(await probeP, 'o', notes));
    if (!omp && echoes) {
      echoed = optional(await askEcho(), 'o', notes) !== undefined;
      if (!echoed) notes.push('no reply to the 15-byte `o` its version answers');
    } else if (!omp && rulesSayOmp) {
      // The probe was sent once (or answered cut); an open.mp server gets the retries too, then the older form.
      const asked = await askOmp();
      omp = optional(asked, 'o', notes);
      // A cut reply to the 11 bytes is from v1.2 or later, which ignore the echo form.
      if (!omp && !wasCut(asked)) echoed = optional(await askEcho(), 'o', notes) !== undefined;
      if (!omp && !echoed && !wasCut(asked)) notes.push('no reply to `o`: no open.mp extras');
    }
  }
  omp = await confirmed(omp);
  let openmp = omp !== undefined || echoed || rulesSayOmp;

  let players: SampPlayer[] | undefined;
  let playersFrom: 'd' | 'c' | undefined;
  if (options.players === false) {
    // not asked
  } else if (info.players > MAX_LISTED_PLAYERS) {
    notes.push(`player list withheld: more than ${MAX_LISTED_PLAYERS} players online`);
  } else {
    let useClients = openmp;
    let dCut = false;
    if (!openmp) {
      const asked = await ask(playersRequest, 'd');
      dCut = wasCut(asked);
      const d = optional(asked, 'd', notes);
      if (d) {
        players = value(s, d, playersResponse, charset, 'd').players.map((p) => ({ id: p.id, name: p.name, score: p.score, ping: p.ping }));
        playersFrom = 'd';
      } else {
        useClients = true;
      }
    }
    if (useClients) {
      const cAsked = await ask(clientsRequest, 'c');
      const c = optional(cAsked, 'c', notes);
      if (c) {
        players = value(s, c, clientsResponse, charset, 'c').clients.map((p) => ({ name: p.name, score: p.score }));
        playersFrom = 'c';
        if (!openmp) notes.push(dCut ? 'used `c` instead of `d`' : 'no reply to `d`: open.mp does not implement it, used `c`');
      } else if (!wasCut(cAsked)) {
        notes.push(
          openmp || dCut ? 'no reply to `c`: no player list (throttled?)' : 'no reply to `d` nor `c`: no player list (throttled?)',
        );
      }
    }
  }

  // A SA-MP-looking server that answered `o` after all.
  if (rulesSaySamp && probedEarly === undefined && usable(probed)) {
    omp = await confirmed(usable(probed));
    if (omp) openmp = true;
  }
  // The reply's form is the layout the pairer recognised it as (the lengths tell).
  const banners = omp?.exchange.responses[0]!.packet.layout === ompbannersResponse;
  const extras: OmpExtras | undefined = !omp
    ? undefined
    : banners
      ? { ...stripHeader(value(s, omp, ompbannersResponse, charset, 'o')), logo: '' }
      : stripHeader(value(s, omp, ompResponse, charset, 'o'));
  const ompForm: OmpForm | undefined = extras ? (banners ? 'banners' : 'logo') : echoed ? 'echo' : undefined;
  if (ompForm) flavor = withOmpReply(flavor, ompForm);
  return {
    protocol: 'samp',
    ...where(s, i.rttMs, notes),
    openmp,
    flavor,
    info,
    ...(rules ? { rules } : {}),
    ...(players ? { players, playersFrom } : {}),
    ...(extras ? { omp: extras } : {}),
    ...(ompForm ? { ompForm } : {}),
  };
}

/* ---------- VC:MP ---------- */

export async function vcmpQuery(s: Session, options: CallOptions & VcmpParts): Promise<VcmpQueryResult> {
  const header = headerOf(s);
  const ask = (layout: Layout<{ serverIp: string; serverPort: number }>, op: string): Promise<Outcome> => {
    const bytes = layout.encode(header);
    return s.request(() => bytes, { lockKey: op });
  };
  const i = required(s, 'i', await ask(vcmpInfoRequest, 'i'), VCMP_HINT);
  const charset = options.charset ?? 'auto';
  const info: VcmpInfo = stripHeader(value(s, i, vcmpInfoResponse, charset, 'i'));
  const notes: string[] = [];
  let players: { name: string }[] | undefined;
  if (options.players === false) {
    // not asked
  } else if (info.players > MAX_LISTED_PLAYERS) {
    notes.push(`player list withheld: more than ${MAX_LISTED_PLAYERS} players online`);
  } else {
    const cAsked = await ask(vcmpClientsRequest, 'c');
    const c = optional(cAsked, 'c', notes);
    if (c) players = value(s, c, vcmpClientsResponse, charset, 'c').clients.map((p) => ({ name: p.name }));
    else if (!wasCut(cAsked)) notes.push('no reply to `c`: no player list (throttled?)');
  }
  return { protocol: 'vcmp', ...where(s, i.rttMs, notes), info, ...(players ? { players } : {}) };
}

/* ---------- Minecraft ---------- */

/** A session id every byte of which survives vanilla's UTF-8 round trip. */
const sessionId = (): number => randomInt(0, 0x1_0000_0000) & 0x0f0f0f0f;

const PADDING = new Uint8Array(4);

const int = (text: string | undefined): number => (text !== undefined && /^-?\d+$/.test(text) ? Number(text) : NaN);

export function minecraftQuery(s: Session, options: CallOptions & { readonly mode?: 'full' | 'basic' }): Promise<MinecraftQueryResult> {
  const mode = options.mode ?? 'full';
  // Vanilla keeps one challenge per client address: a second handshake from this socket
  // would void the first one's token, so one sequence per server at a time.
  return s.exclusive('sequence', async () => {
    const used = new Set<number>();
    const fresh = (): number => {
      let id = sessionId();
      for (let n = 0; used.has(id) && n < 16; n++) id = sessionId();
      used.add(id);
      return id;
    };
    const handshake = async (): Promise<{ sessionId: number; token: number }> => {
      const o = required(s, 'handshake', await s.request(() => handshakeRequest.encode({ sessionId: fresh() })), MINECRAFT_HINT);
      const v = o.exchange.responses[0]!.value as { sessionId?: unknown; token?: unknown };
      if (typeof v.sessionId !== 'number' || typeof v.token !== 'number') {
        throw new BadReplyError(`${s.server.label} answered the handshake without a token`, {
          code: 'bad-reply',
          server: s.server.label,
          protocol: 'mcquery',
          request: 'handshake',
        });
      }
      return { sessionId: v.sessionId, token: v.token };
    };
    const stat = (h: { sessionId: number; token: number }, retries: number): Promise<Outcome> => {
      const bytes =
        mode === 'full'
          ? fullRequest.encode({ sessionId: h.sessionId, token: h.token, padding: PADDING })
          : basicRequest.encode({ sessionId: h.sessionId, token: h.token });
      return s.request(() => bytes, { retries });
    };

    const notes: string[] = [];
    let handshakes = 1;
    // The first stat is sent once: if its token has expired, resending it cannot help.
    let o = await stat(await handshake(), 0);
    if (o.kind === 'unanswered') {
      notes.push(`no reply to the ${mode} stat (token expired?): handshook again`);
      handshakes++;
      o = await stat(await handshake(), s.retries);
    }
    const reply = required(
      s,
      mode,
      o,
      'the stat went unanswered after a second handshake: a server drops a stat whose token it no longer holds (vanilla purges them every 30 s), or the replies were lost',
    );
    const read = statResult(s, reply, options.charset ?? 'auto');
    return { protocol: 'mcquery', ...where(s, reply.rttMs, notes), ...read, handshakes };
  });
}

function statResult(
  s: Session,
  reply: Reply,
  charset: Charset | undefined,
): Pick<MinecraftQueryResult, 'mode' | 'info' | 'kv' | 'players'> {
  const got = reply.exchange.responses[0]!.message;
  if (got === 'basic') {
    return { mode: 'basic', info: stripSession(value(s, reply, basicResponse, charset, 'basic')) };
  }
  const full = value(s, reply, fullResponse, charset, 'full');
  const kv: Record<string, string> = {};
  for (const { key, value: v } of full.kv) kv[key] = v;
  return {
    mode: 'full',
    info: {
      motd: kv['hostname'] ?? '',
      gametype: kv['gametype'] ?? '',
      map: kv['map'] ?? '',
      numPlayers: int(kv['numplayers']),
      maxPlayers: int(kv['maxplayers']),
      hostPort: int(kv['hostport']),
      hostIp: kv['hostip'] ?? '',
      gameId: kv['game_id'] ?? '',
      version: kv['version'] ?? '',
      plugins: kv['plugins'] ?? '',
    },
    kv,
    players: full.players,
  };
}

const stripSession = <V extends { sessionId?: unknown }>(v: V): Omit<V, 'sessionId'> => {
  const { sessionId: _id, ...rest } = v;
  return rest;
};

/* ---------- ping ---------- */

export async function pingQuery(s: Session, protocol: 'samp' | 'vcmp'): Promise<PingResult> {
  const header = headerOf(s);
  const layout = protocol === 'samp' ? pingRequest : vcmpPingRequest;
  // A fresh nonce per attempt: a retry must not look like the reply to the first one.
  const o = required(
    s,
    'p',
    await s.request(() => layout.encode({ ...header, nonce: randomInt(0, 0x1_0000_0000) })),
    protocol === 'samp' ? SAMP_HINT : VCMP_HINT,
  );
  return { protocol, server: s.server.label, address: s.server.address, port: s.server.port, rttMs: o.rttMs, attempts: o.attempts };
}

/* ---------- RCON ---------- */

export async function rconQuery(s: Session, password: string, command: string, options: CallOptions): Promise<RconResult> {
  const charset = options.charset;
  const text = textCodec(charset ?? rconRequest.defaultCharset);
  // Checked here so that no codec error can quote the password.
  if (!text.encode(password)) {
    throw new QueryError(`the RCON password has characters that ${text.charset} cannot encode`, {
      code: 'send',
      server: s.server.label,
      protocol: 'samp',
      request: 'x',
    });
  }
  if (!text.encode(command)) {
    throw new QueryError(`the command has characters that ${text.charset} cannot encode`, {
      code: 'send',
      server: s.server.label,
      protocol: 'samp',
      request: 'x',
    });
  }
  let bytes: Uint8Array;
  try {
    bytes = rconRequest.encode({ ...headerOf(s), password, command }, charset ? { charset } : undefined);
  } catch (e) {
    // A codec error names the field and the sizes, never the value (a password too long for its u16 length).
    const why = e instanceof CodecError ? e.message : 'the request cannot be encoded';
    throw new QueryError(`cannot send the RCON command: ${why}`, { code: 'send', server: s.server.label, protocol: 'samp', request: 'x' });
  }
  const o = await s.request(() => bytes, { lockKey: 'x' });
  if (o.kind === 'error') throw o.error;
  if (o.kind === 'unanswered') {
    throw noReply(
      s,
      'x',
      o,
      `no reply from ${s.server.label}: RCON disabled or the password/command was cut (a command that prints nothing is silent too)`,
      RconSilenceError,
    );
  }
  const lines = o.exchange.responses.map((r) =>
    !charset && r.packet.layout === rconResponse
      ? (r.value['output'] as string)
      : rconResponse.decode(r.datagram.bytes, charset ? { charset } : undefined).value.output,
  );
  if (lines.every((l) => l === INVALID_RCON_PASSWORD)) {
    throw new WrongPasswordError(`wrong RCON password for ${s.server.label}: the server answered "${INVALID_RCON_PASSWORD}"`, {
      code: 'wrong-password',
      server: s.server.label,
      protocol: 'samp',
      request: 'x',
    });
  }
  return { server: s.server.label, address: s.server.address, port: s.server.port, command, lines, rttMs: o.rttMs };
}
