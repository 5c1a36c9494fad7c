/**
 * Which server a SA:MP rules reply comes from, and the rules that say so. The query client's one
 * source for choosing `c` or `d` and whether (and in which form) to ask `o`.
 *
 * What each server sends (open.mp `legacy_network_impl.cpp`, HEAD f8058db; docs/protocols/samp.md for the rules reply):
 *   open.mp      `version` "omp <major>.<minor>.<patch>.<build>", `allowed_clients` ("0.3.7, 0.3.DL", or
 *                "0.3.DL" when 0.3.7 clients are refused), `artwork` (Yes/No)
 *   SA-MP 0.3.7  `version` "0.3.7-R2" (…-R1, -R3, -R4); no `allowed_clients`
 *   SA-MP other  `version` "0.3.DL-R1", "0.3z-R4"…: a SA-MP server that is not 0.3.7
 * `artwork` and `allow_DL` are shown as evidence when present but decide nothing on their own: a
 * SA-MP 0.3.DL server or a plugin may send either.
 */
import { ompFormOf, type OmpForm } from '../protocols/samp/omp.ts';

/** `openmp`; `samp-0.3.7`; `samp`: a SA-MP server of another version (0.3.DL, 0.3z…); `unknown`: no rule says. */
export type ServerFlavorName = 'openmp' | 'samp-0.3.7' | 'samp' | 'unknown';

/** The server's flavor and why: each piece of evidence `rule=value` as sent (or `o=<form>` for an `o` reply). */
export interface ServerFlavor {
  readonly name: ServerFlavorName;
  readonly evidence: readonly string[];
}

/** The rules shown as evidence, in this order, when present. */
export const FLAVOR_RULES = ['version', 'allowed_clients', 'artwork', 'allow_DL'] as const;

const SAMP037 = /^0\.3\.7(?:$|[-\s])/;

/** The flavor the rules say (`unknown` with no evidence when there are no rules). */
export function flavorOfRules(rules: Readonly<Record<string, string>> | undefined): ServerFlavor {
  if (!rules) return { name: 'unknown', evidence: [] };
  const evidence = FLAVOR_RULES.filter((k) => Object.hasOwn(rules, k)).map((k) => `${k}=${rules[k]}`);
  const version = Object.hasOwn(rules, 'version') ? rules['version']! : undefined;
  if (version?.startsWith('omp ') || Object.hasOwn(rules, 'allowed_clients')) return { name: 'openmp', evidence };
  if (version === undefined) return { name: 'unknown', evidence };
  return { name: SAMP037.test(version) ? 'samp-0.3.7' : 'samp', evidence };
}

/** The `o` form an open.mp flavor's `version` rule implies (undefined when it names no release). */
export function ompFormOfFlavor(flavor: ServerFlavor): OmpForm | undefined {
  if (flavor.name !== 'openmp') return undefined;
  const version = flavor.evidence.find((e) => e.startsWith('version='))?.slice('version='.length);
  return version === undefined ? undefined : ompFormOf(version)?.form;
}

/** The flavor once `o` was answered (in `form`): open.mp, whatever the rules said, with the reply as evidence. */
export const withOmpReply = (flavor: ServerFlavor, form: OmpForm): ServerFlavor => ({
  name: 'openmp',
  evidence: [...flavor.evidence, `o=${form}`],
});
