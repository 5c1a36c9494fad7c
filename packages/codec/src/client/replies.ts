/**
 * Reading replies into results: a reply's value in its layout (in the asked charset, `auto`
 * noting what it chose), the typed failure of a silence, the header a request echoes, and
 * what every result carries (`where`). Shared by every query procedure in queries.ts.
 */
import type { FieldNode } from '../grammar/annotate.ts';
import type { Charset } from '../grammar/charset.ts';
import type { Layout } from '../grammar/layout.ts';
import { BadReplyError, NoReplyError, QueryError, RconSilenceError } from './errors.ts';
import type { DetectedText, Where } from './results.ts';
import type { Outcome, Session } from './session.ts';

export type Reply = Extract<Outcome, { kind: 'reply' }>;

/** The 11-byte header's address as the client addressed the server (IPv6: zeros; nobody checks it). */
export const headerOf = (s: Session): { serverIp: string; serverPort: number } => ({
  serverIp: s.server.family === 4 ? s.server.address : '0.0.0.0',
  serverPort: s.server.port,
});

/** What charset `auto` chose in each query's replies (see {@link Where.charsets}). */
const detectedIn = new WeakMap<Session, DetectedText[]>();

export const where = (s: Session, rttMs: number, notes: readonly string[]): Where => {
  const charsets = detectedIn.get(s);
  return {
    server: s.server.label,
    address: s.server.address,
    port: s.server.port,
    rttMs,
    notes,
    ...(charsets?.length ? { charsets } : {}),
  };
};

export const tries = (s: Session, attempts: number): string => `${attempts} attempt${attempts === 1 ? '' : 's'}, ${s.timeoutMs} ms each`;

/** The reply's value in `layout` (decoded again when a charset is asked for; `auto` notes what it chose). */
export function value<V>(s: Session, reply: Reply, layout: Layout<V>, charset: Charset | undefined, request: string): V {
  const r = reply.exchange.responses[0]!;
  if (!charset && r.packet.layout === layout) return r.value as V;
  try {
    if (charset === 'auto') {
      const ann = layout.annotate(r.datagram.bytes, { charset });
      if (ann.error) throw ann.error;
      const found = detectedIn.get(s) ?? [];
      const walk = (nodes: readonly FieldNode[]): void => {
        for (const n of nodes) {
          if (n.charset !== undefined)
            found.push({ field: n.abbrev, text: String(n.value), charset: n.charset, confidence: n.confidence! });
          if (n.children) walk(n.children);
        }
      };
      walk(ann.fields);
      detectedIn.set(s, found);
      return ann.value!;
    }
    return layout.decode(r.datagram.bytes, charset ? { charset } : undefined).value;
  } catch (e) {
    throw new BadReplyError(
      `${s.server.label} answered \`${request}\` with something else than ${layout.title}: ${e instanceof Error ? e.message : String(e)}`,
      {
        code: 'bad-reply',
        server: s.server.label,
        protocol: s.protocol,
        request,
      },
    );
  }
}

export function noReply(
  s: Session,
  request: string,
  o: Extract<Outcome, { kind: 'unanswered' }>,
  message: string,
  kind = NoReplyError,
): QueryError {
  return new kind(`${message} (${tries(s, o.attempts)})`, {
    code: kind === RconSilenceError ? 'rcon-silent' : 'no-reply',
    server: s.server.label,
    protocol: s.protocol,
    request,
    attempts: o.attempts,
    reason: o.reason,
  });
}

/** The reply, or the typed failure: silence explained by `hint`, errors as they are. */
export function required(s: Session, request: string, o: Outcome, hint: string): Reply {
  if (o.kind === 'reply') return o;
  if (o.kind === 'error') throw o.error;
  throw noReply(s, request, o, `no reply from ${s.server.label}: ${hint}`);
}

export const stripHeader = <V extends { serverIp?: unknown; serverPort?: unknown }>(v: V): Omit<V, 'serverIp' | 'serverPort'> => {
  const { serverIp: _ip, serverPort: _port, ...rest } = v;
  return rest;
};
