/** The dissector's type tests (`*.test-d.ts` here), run by `tsc -p` (the codec's helpers/type-tests.ts). */
import { typeTests } from '../../../codec/test/helpers/type-tests.ts';

typeTests(new URL('.', import.meta.url));
