/** The part of gamedig 5.3.3 (which ships no types) that the tests use. */
declare module 'gamedig' {
  export class GameDig {
    constructor(runnerOptions?: { listenUdpPort?: number });
    query(options: Record<string, unknown>): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}
