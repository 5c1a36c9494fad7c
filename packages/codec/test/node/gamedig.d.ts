/** The part of gamedig 5.3.3 (which ships no types) that the tests use. */
declare module 'gamedig' {
  /** A player as gamedig reports one: its name, and the protocol's other fields under `raw`. */
  export interface Player {
    readonly name: string;
    readonly raw: Readonly<Record<string, unknown>>;
  }
  /** A query's result: the fields the tests read, the protocol's own under `raw`. */
  export interface QueryResult {
    readonly [field: string]: unknown;
    readonly players: readonly Player[];
    readonly raw: Readonly<Record<string, unknown>>;
  }
  export class GameDig {
    constructor(runnerOptions?: { listenUdpPort?: number });
    query(options: Record<string, unknown>): Promise<QueryResult>;
  }
}
