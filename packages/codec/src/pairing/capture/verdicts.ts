/**
 * A frame's verdict (facts.ts `Why`) in words and as a code, for the pass that renders it:
 * the words are the live pairer's (reasons.ts); what they name that the facts do not keep
 * (the address a reply came from, the one its echo names, its type) is read from the frame.
 */
import type { ProtocolDeclaration } from '../../grammar/protocol.ts';
import type { QueryLayout } from '../../protocols/index.ts';
import { builtInProtocols } from '../../protocols/index.ts';
import { ENDED, EXTRA, DROPPED, NO_REQUEST, SUPERSEDED, fromElsewhere, late, otherType, rconClosed, timedOut } from '../reasons.ts';
import type { UnmatchedCause } from '../types.ts';
import { Why, type WhyCode } from './facts.ts';

/** The durations the words name, and the protocols whose declarations they read (default: the built-in ones). */
export interface VerdictOptions {
  readonly timeoutMs: number;
  readonly rconQuietMs?: number;
  readonly protocols?: readonly ProtocolDeclaration[];
}

/** Why a request went unanswered, or undefined when it did not. */
export function unansweredReason(why: WhyCode, request: QueryLayout, o: VerdictOptions): string | undefined {
  switch (why) {
    case Why.timeout:
      return timedOut(declarationOf(request.protocol, o)?.unansweredBecause, request.message, o.timeoutMs);
    case Why.ended:
      return ENDED;
    case Why.superseded:
      return SUPERSEDED;
    default:
      return undefined;
  }
}

/** Whether `why` says a reply is unmatched. */
export const isUnmatched = (why: WhyCode): boolean => why >= Why.noRequest;

/** The code programs decide on, of an unmatched reply. */
export function unmatchedCause(why: WhyCode): UnmatchedCause {
  switch (why) {
    case Why.late:
      return 'late';
    case Why.extra:
      return 'extra';
    case Why.rconClosed:
      return 'rcon-closed';
    case Why.dropped:
      return 'dropped';
    case Why.nearMissServer:
    case Why.nearMissType:
    case Why.nearMissTypeAnswered:
      return 'near-miss';
    default:
      return 'no-request';
  }
}

/** What the words of an unmatched reply read from its frame. */
export interface UnmatchedReply {
  /** Its payload and layout. */
  readonly bytes: Uint8Array;
  readonly layout: QueryLayout;
  /** The address it came from. */
  readonly from: { readonly address: string; readonly port: number };
  /** Late: nanoseconds after its request. */
  readonly lateNs: number;
  /** A near miss: the layout of the request it names. */
  readonly named: QueryLayout | undefined;
}

/** The declaration of protocol `name` among those `o` names. */
const declarationOf = (name: string, o: VerdictOptions): ProtocolDeclaration | undefined =>
  (o.protocols ?? builtInProtocols).find((p) => p.name === name);

/** Why a reply is unmatched, in words. */
export function unmatchedReason(why: WhyCode, r: UnmatchedReply, o: VerdictOptions): string {
  switch (why) {
    case Why.late:
      return late(r.lateNs, o.timeoutMs);
    case Why.extra:
      return EXTRA;
    case Why.rconClosed:
      return rconClosed(o.rconQuietMs ?? 500);
    case Why.dropped:
      return DROPPED;
    case Why.nearMissServer: {
      const declared = declarationOf(r.layout.protocol, o);
      const key = declared?.pairing;
      const server = key?.kind === 'echo' ? key.server : undefined;
      if (!server) return NO_REQUEST;
      const b = r.bytes;
      const a = server.address,
        p = server.port;
      const address = `${b[a]}.${b[a + 1]}.${b[a + 2]}.${b[a + 3]}`;
      const port = declared!.endian === 'le' ? b[p]! | (b[p + 1]! << 8) : (b[p]! << 8) | b[p + 1]!;
      return fromElsewhere(r.from, { address, port });
    }
    case Why.nearMissType:
    case Why.nearMissTypeAnswered: {
      const key = declarationOf(r.layout.protocol, o)?.pairing;
      const at = key?.kind === 'session' ? key.response.type : 0;
      const type = r.bytes[at] ?? 0;
      const field = r.layout.fields.find((f) => f.kind === 'const');
      const name = field?.kind === 'const' ? field.values?.[type]?.toLowerCase() : undefined;
      const message = r.named?.message ?? 'unknown';
      // A known server's habit, as the protocol declares it.
      const habit = key?.kind === 'session' ? key.answeredAgain : undefined;
      const known = habit !== undefined && why === Why.nearMissTypeAnswered && message === habit.message && type === habit.type;
      return otherType(type, name, message, known ? habit.note : undefined);
    }
    default:
      return NO_REQUEST;
  }
}
