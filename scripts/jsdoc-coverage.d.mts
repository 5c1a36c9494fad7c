/** Types of `jsdoc-coverage.mjs`, for the TypeScript that imports it (packages/codec/test/jsdoc.test.ts). */
export declare const root: string;
export declare const packages: readonly string[];
export declare function entriesOf(pkg: string): { specifier: string; file: string }[];
export declare function publicExports(): { specifier: string; name: string; file: string; line: number; documented: boolean }[];
