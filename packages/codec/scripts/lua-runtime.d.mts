/** Types of `lua-runtime.mjs`, for the TypeScript that imports it (packages/codec/test/export/lua-runtime.test.ts). */
export declare const luaFile: string;
export declare const moduleFile: string;
export declare const regenerate: string;
export declare function runtimeOf(lua: string): string;
export declare function moduleOf(lua: string): string;
