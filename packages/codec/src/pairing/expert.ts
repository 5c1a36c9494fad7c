/**
 * The pairing layer's expert items: why a reply belongs to no pending request, one per
 * {@link UnmatchedCause} (the type checks the table covers every cause). An unmatched
 * event's `cause` is the code; its `reason` is the words for this one reply.
 */
import { declareExperts, type ExpertInfo } from '../grammar/expert.ts';
import type { UnmatchedCause } from './types.ts';

const sequence = <C extends UnmatchedCause>(code: C, summary: string): ExpertInfo<C> => ({
  code,
  group: 'Sequence',
  severity: 'Warning',
  summary,
});

/** The expert item of each unmatched cause. */
export const unmatchedExperts: { readonly [C in UnmatchedCause]: ExpertInfo<C> } = {
  'no-request': sequence('no-request', 'reply to no request seen (nor remembered)'),
  late: sequence('late', 'reply after its request timed out'),
  extra: sequence('extra', 'reply to a request answered already by a different reply'),
  'rcon-closed': sequence('rcon-closed', 'RCON line after its exchange closed (silence, or a newer command)'),
  dropped: sequence('dropped', 'reply to a request dropped by the maxPending limit'),
  'near-miss': sequence('near-miss', 'reply near a request (same conversation) that it does not match exactly'),
};

declareExperts(Object.values(unmatchedExperts));
