/**
 * @gamequery/codec/node — Node-only tools built on the codec: a query-server emulator
 * that answers SA-MP 0.3.7, open.mp, VC:MP 0.4 and vanilla Minecraft queries from a
 * JSON state, quirks included, behind per-source abuse limits; and the query client.
 * The two live in `../emulator/` and `../client/` (also their own entries,
 * `@gamequery/codec/emulator` and `@gamequery/codec/client`); this entry is both.
 */
export * from '../emulator/index.ts';
export * from '../client/index.ts';
