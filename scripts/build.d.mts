/** Types of `build.mjs`, for the TypeScript that imports it (the start-up benchmark, the built CLI's test). */
export declare const root: string;
export declare const main: string;
export declare const buildArgs: readonly string[];
export declare function staleness(): string | undefined;
export declare function build(): boolean;
export declare function pruneStale(): string[];
