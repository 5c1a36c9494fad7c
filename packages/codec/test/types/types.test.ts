/** The codec's type tests (`*.test-d.ts` here), run by `tsc -p` (helpers/type-tests.ts). */
import { typeTests } from '../helpers/type-tests.ts';

typeTests(new URL('.', import.meta.url));
