/** `pnpm bench`: every benchmark, ratios against baselines measured in this process. */
import { benchCodec } from './codec.ts';

console.log(`gamequery benchmarks — node ${process.version}, ${process.arch}`);
benchCodec();
