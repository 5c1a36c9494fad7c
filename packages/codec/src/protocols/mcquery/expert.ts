/**
 * Minecraft query's own expert items (the generic ones are grammar/expert.ts's): a reply
 * has no magic, so one read without its request is known by its shape alone.
 */
import { declareExperts, warning, type DecodeWarning, type ExpertInfo } from '../../grammar/expert.ts';

/**
 * A Minecraft query reply whose request the input does not hold (a hex dump of a reply, a
 * capture started mid-conversation): read by its shape (`minecraftReplyShape`) or because
 * the caller said which protocol it is. Sequence, as tshark groups a reply without its request.
 */
export const MINECRAFT_REQUEST_NOT_SEEN: ExpertInfo<'request-not-seen'> = {
  code: 'request-not-seen',
  group: 'Sequence',
  severity: 'Warning',
  summary: 'Minecraft query reply whose request was not seen: read by its own bytes (its shape, or --protocol), not paired with a request',
};

/** Minecraft query's expert items. */
export const minecraftExperts: readonly ExpertInfo[] = declareExperts([MINECRAFT_REQUEST_NOT_SEEN]);

/** The {@link MINECRAFT_REQUEST_NOT_SEEN} warning, on the generated link item (`mcquery.response_to`), made once. */
export const minecraftRequestNotSeen: DecodeWarning = Object.freeze(warning(MINECRAFT_REQUEST_NOT_SEEN, 'mcquery.response_to', 0));
