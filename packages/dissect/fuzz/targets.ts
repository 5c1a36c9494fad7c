/** The dissect package's fuzz targets: capture reader, IP reassembly, hex-dump parser. */
import type { FuzzTarget } from '../../codec/fuzz/harness.ts';
import { captureTarget } from './capture.ts';
import { hexTarget } from './hex.ts';
import { reassemblyTarget } from './reassembly.ts';

export const dissectTargets: readonly FuzzTarget[] = [captureTarget, reassemblyTarget, hexTarget];
