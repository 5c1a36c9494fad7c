/**
 * @gamequery/codec/rx — request/response pairing for the query protocols, as an RxJS
 * operator over datagrams from a live socket or a capture file. Browser-safe. The core
 * alone, without RxJS, is `@gamequery/codec/pairing` (index.ts), re-exported here.
 *
 * `pairQueries`: the pairing core (pairer.ts) as an RxJS operator, with two drivers that
 * differ only in where "now" comes from.
 *
 *   datagram clock   now = each datagram's `time`; a request times out when a later
 *                    datagram shows its deadline has passed (captures, offline)
 *   scheduler clock  now = `scheduler.now()`; a timer wakes the core at the next deadline,
 *                    so a live client hears of silence without further traffic
 *
 * Either way rtt comes from the datagrams' own times, and on completion of the source
 * everything still pending is flushed.
 */
import { Observable, asyncScheduler, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { QueryPairer, settingsOf, type QueryPairerOptions } from './pairer.ts';
import type { Datagram, PairerOptions, PairingEvent } from './types.ts';
import type { BuiltInProtocol } from '../protocols/index.ts';

export * from './index.ts';

/** Options of {@link pairQueries}: the pairing options, and the protocols paired (as {@link QueryPairer}'s). */
export interface PairingOptions<P extends string = BuiltInProtocol>
  extends PairerOptions, Pick<QueryPairerOptions<unknown, P>, 'protocols'> {
  /**
   * `datagram` (default without a `scheduler`): time advances with the datagrams' `time`.
   * `scheduler` (default with one): timeouts fire from the scheduler.
   */
  readonly clock?: 'datagram' | 'scheduler';
  /** The scheduler of the `scheduler` clock; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Milliseconds (possibly fractional, possibly epoch-sized) to exact nanoseconds. */
const nanosOf = (ms: number): bigint => BigInt(Math.trunc(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1e6));

interface Driver<M> {
  receive(d: Datagram<M>): void;
  stop(): void;
}

type Emit<M, P extends string> = (events: readonly PairingEvent<M, P>[]) => void;

/** Datagram clock: each datagram's time is now. */
const datagramDriver = <M, P extends string>(core: QueryPairer<M, P>, emit: Emit<M, P>): Driver<M> => ({
  receive: (d) => emit(core.receive(d)),
  stop: () => {},
});

/** Scheduler clock: the scheduler's time is now, and one timer waits for the next deadline. */
function schedulerDriver<M, P extends string>(core: QueryPairer<M, P>, emit: Emit<M, P>, scheduler: SchedulerLike): Driver<M> {
  const now = () => nanosOf(scheduler.now());
  let timer: { at: bigint; subscription: Subscription } | undefined;
  const stop = () => {
    timer?.subscription.unsubscribe();
    timer = undefined;
  };
  const arm = () => {
    const at = core.nextDeadline();
    if (timer?.at === at) return;
    stop();
    if (at === undefined) return;
    const delay = Math.max(0, Number((at - now() + 999_999n) / 1_000_000n));
    timer = {
      at,
      subscription: scheduler.schedule(() => {
        timer = undefined;
        emit(core.expire(now()));
        arm();
      }, delay),
    };
  };
  return {
    receive: (d) => {
      emit(core.receive(d, now()));
      arm();
    },
    stop,
  };
}

/**
 * Pairs query requests with their replies. Each datagram is decoded (the codec's
 * `decodePacket`, with the conversation's context as the hint where the bytes need it) and
 * reported in exactly one event: `exchange`, `unanswered`, `unmatched`, `duplicate`,
 * `undecodable` or `overflow`.
 *
 * @example
 * ```ts
 * from(datagramsOfCapture).pipe(pairQueries()).subscribe(show);                 // datagram clock
 * socketMessages$.pipe(pairQueries({ clock: 'scheduler', timeoutMs: 2000 }));  // live
 * ```
 */
export function pairQueries<M = unknown, P extends string = BuiltInProtocol>(
  options: PairingOptions<P> = {},
): OperatorFunction<Datagram<M>, PairingEvent<M, P>> {
  settingsOf(options); // bad options fail here, not at subscription
  const clock = options.clock ?? (options.scheduler ? 'scheduler' : 'datagram');
  return (source) =>
    new Observable<PairingEvent<M, P>>((subscriber) => {
      const core = new QueryPairer<M, P>(options);
      const emit: Emit<M, P> = (events) => {
        for (const e of events) subscriber.next(e);
      };
      const driver = clock === 'scheduler' ? schedulerDriver(core, emit, options.scheduler ?? asyncScheduler) : datagramDriver(core, emit);
      const subscription = source.subscribe({
        next: (d) => driver.receive(d),
        error: (error: unknown) => {
          driver.stop();
          emit(core.flush());
          subscriber.error(error);
        },
        complete: () => {
          driver.stop();
          emit(core.flush());
          subscriber.complete();
        },
      });
      return () => {
        driver.stop();
        subscription.unsubscribe();
      };
    });
}
