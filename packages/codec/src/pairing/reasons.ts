/**
 * The words of the pairing layer's verdicts, written once for both pairers: the live one
 * (pairer.ts), whose events carry them, and the capture one (capture/), whose frame facts
 * keep a code that the dissector turns into these words when it renders the frame. The
 * words may change; programs read the codes (`UnmatchedCause`, the facts' `Why`).
 */
import { hostPort } from '../grammar/display.ts';

/** Milliseconds as the reasons write them: whole microseconds, in ms. */
export const showMs = (ns: number): string => `${Math.trunc(ns / 1000) / 1000} ms`;

/**
 * A request of message `message` that had no reply when its timeout passed: why, where its
 * protocol's declaration says what the silence of that message means (its `unansweredBecause`).
 */
export const timedOut = (silence: Readonly<Record<string, string>> | undefined, message: string, timeoutMs: number): string => {
  const hint = silence?.[message];
  return hint ? `no reply (${hint})` : `no reply within ${timeoutMs} ms`;
};

export const ENDED = 'no reply before the input ended';

/** An RCON command with no line yet when a newer command of its conversation came: the lines that follow are the newer one's. */
export const SUPERSEDED = "no reply before the next command from the same client (the lines that follow are the newer command's)";

export const NO_REQUEST = 'no pending request for this reply';
/** A reply without magic (told by its shape) with no request of its protocol (titled `title`) in its conversation. */
export const noRequestIn = (title: string): string => `no ${title} request pending in this conversation`;
export const EXTRA = 'another, different reply to a request already answered';
export const DROPPED = 'reply to a request dropped by the maxPending limit';

export const rconClosed = (quietMs: number): string => `RCON line after the exchange closed (${quietMs} ms of silence)`;

/**
 * A reply that came `ns` after a request that had timed out: in capture time, or, sooner
 * than the timeout, in wall time (a live input that went quiet moves the clock on).
 */
export const late = (ns: number, timeoutMs: number): string =>
  ns > timeoutMs * 1e6
    ? `late reply, ${showMs(ns)} after the request (timeout ${timeoutMs} ms)`
    : `late reply, ${showMs(ns)} after the request in capture time, which had been given up on while the input was quiet (timeout ${timeoutMs} ms of wall time)`;

/** A reply from another address than the one the request went to. */
export const fromElsewhere = (from: { address: string; port: number }, to: { address: string; port: number }): string =>
  `reply from ${hostPort(from.address, from.port)}, but the request went to ${hostPort(to.address, to.port)}`;

/**
 * A reply of another type than its request's (`type` its type byte, `name` what the
 * protocol calls that type), to a request of message `message`; `note`: why, where the
 * protocol declares this a known server's habit (its session key's `answeredAgain`).
 */
export const otherType = (type: number, name: string | undefined, message: string, note: string | undefined): string =>
  `a ${name ?? 'unknown'} reply (type 0x${type.toString(16).padStart(2, '0')}) to a ${message} request` + (note ? ` (${note})` : '');
