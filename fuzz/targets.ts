/** Every fuzz target, in the order `pnpm fuzz` runs them. */
import type { FuzzTarget } from '../packages/codec/fuzz/harness.ts';
import { codecTargets } from '../packages/codec/fuzz/codec.ts';
import { dissectTargets } from '../packages/dissect/fuzz/targets.ts';

export const targets: readonly FuzzTarget[] = [...codecTargets, ...dissectTargets];
