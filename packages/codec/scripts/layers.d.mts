/** Types of `layers.mjs`, for the TypeScript that imports it (packages/codec/test/layers.test.ts). */
export declare function layerOf(path: string): string;
export declare function violations(files: Record<string, string>): string[];
export declare function sources(): Record<string, string>;
