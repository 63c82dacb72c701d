// A file the client loads before its first call: rxjs from its own files, not from "rxjs" (see
// "The client's first load" in docs/development.md).
import { Observable } from "rxjs/internal/Observable";
import type { Subscriber, TeardownLogic } from "rxjs";
import type { LazyModule } from "../util/lazyModule.js";

/**
 * A call's place among a client's calls while some wait for a module loaded on first use: its
 * `started` settles once the call's work has been subscribed (or the call has ended before) and
 * every call before it has started or ended, so that a call let go while waiting lets the calls
 * after it go on only in their order.
 */
interface Turn {
  readonly started: Promise<void>;
  /** This call's work has been subscribed, or the call has ended. */
  finished: boolean;
  /** This call and every call before it have started or ended (set once seen). */
  passed: boolean;
  /** The call before it, until every call up to this one has passed. */
  before: Turn | undefined;
  /** A part of the call (a module it needs inside) still waits: the call has not started. */
  deferred: boolean;
  finish(): void;
}

/**
 * Where a client keeps its calls' order while modules load (its settings, later its parts: one
 * object, so calls made before and after the core loaded share it).
 *
 * ## Example
 * ```ts
 * const order: LoadOrder = {};
 * withModule(order, bulkModule, ({ clientBulk }) => clientBulk(parts, "echo", rows, {}));
 * ```
 * @internal
 */
export interface LoadOrder {
  /** The last call made that had to wait (for a module, or for a call before it). */
  lastTurn?: Turn;
  /** Set while a waiting call starts its work: what that work subscribes is part of it. */
  currentTurn?: Turn;
}

function newTurn(before: Turn | undefined): Turn {
  let settle!: () => void;
  const own = new Promise<void>((resolve) => (settle = resolve));
  const turn: Turn = {
    started: before === undefined ? own : Promise.all([before.started, own]).then(() => undefined),
    finished: false,
    passed: false,
    before,
    deferred: false,
    finish: () => {
      if (turn.finished) return;
      turn.finished = true;
      settle();
    },
  };
  return turn;
}

/**
 * Whether `turn` and every turn before it have finished: walks back to the first unfinished one
 * (the latest turns are usually the waiting ones, so the walk is short) and, once all have
 * finished, forgets the chain so that it is not walked again.
 */
function hasPassed(turn: Turn): boolean {
  for (let at: Turn | undefined = turn; at !== undefined && !at.passed; at = at.before) {
    if (!at.finished) return false;
  }
  turn.passed = true;
  turn.before = undefined;
  return true;
}

/**
 * Starts a call's work now: a waiting call's own turn is current meanwhile, so work it
 * subscribes on the way (a module needed inside) stays part of it; the turn is over once the
 * work has started, unless a part of it went on waiting. What the work delivers to the caller
 * meanwhile (an error thrown as it starts: a row too large, inputs that cannot be sent) reaches
 * the caller outside the turn: a call the caller makes there is a new call, behind the calls
 * made before it.
 */
function startWork<T>(
  order: LoadOrder,
  turn: Turn | undefined,
  work: () => Observable<T>,
  subscriber: Subscriber<T>
): TeardownLogic {
  if (turn === undefined) return work().subscribe(subscriber);
  const outer = order.currentTurn;
  const toCaller =
    <A extends unknown[]>(deliver: (...args: A) => void) =>
    (...args: A): void => {
      const current = order.currentTurn;
      if (current === turn) order.currentTurn = outer;
      try {
        deliver(...args);
      } finally {
        order.currentTurn = current;
      }
    };
  order.currentTurn = turn;
  turn.deferred = false;
  try {
    return work().subscribe({
      next: toCaller((value: T) => subscriber.next(value)),
      error: toCaller((error: unknown) => subscriber.error(error)),
      complete: toCaller(() => subscriber.complete()),
    });
  } catch (error) {
    toCaller(() => subscriber.error(error))();
    return undefined;
  } finally {
    order.currentTurn = outer;
    if (!turn.deferred) turn.finish();
  }
}

/**
 * A call's work in its place: it starts once every call made before it has started and `lazy`
 * (when given) has loaded. Nothing waiting and the module there (the usual case): it starts
 * synchronously on subscribe, so a `TestScheduler` drives it like any other code.
 */
function inTurn<T>(
  order: LoadOrder,
  lazy: LazyModule<unknown> | undefined,
  work: () => Observable<T>
): Observable<T> {
  return new Observable<T>((subscriber) => {
    // Subscribed by a waiting call as it starts: this is that call, already in its place.
    const own = order.currentTurn;
    const before = own ? undefined : order.lastTurn;
    const loaded = lazy === undefined || lazy.module !== undefined;
    if (loaded && (before === undefined || hasPassed(before))) {
      return own ? work().subscribe(subscriber) : startWork(order, undefined, work, subscriber);
    }
    const turn = own ?? newTurn(before);
    if (own) own.deferred = true;
    else order.lastTurn = turn;
    let failure: { error: unknown } | undefined;
    const load =
      lazy === undefined || lazy.module !== undefined
        ? undefined
        : lazy.load().then(
            () => undefined,
            (error: unknown) => void (failure = { error })
          );
    let closed = false;
    let teardown: TeardownLogic;
    void Promise.all([before?.started, load]).then(() => {
      if (closed) return;
      if (failure) {
        turn.finish();
        subscriber.error(failure.error);
        return;
      }
      teardown = startWork(order, turn, work, subscriber);
      if (closed) runTeardown(teardown);
    });
    return () => {
      closed = true;
      runTeardown(teardown);
      // A call let go before it started: the calls after it go on.
      turn.finish();
    };
  });
}

function runTeardown(teardown: TeardownLogic): void {
  if (typeof teardown === "function") teardown();
  else teardown?.unsubscribe();
}

/**
 * Work of a client's call that must keep its place behind calls still loading a module: calls
 * take request and run slots in the order they were subscribed, even when an earlier one (the
 * first `bulk`, any call on a client whose core still loads) waited for its module. Nothing is
 * waiting (the usual case): the work starts at once.
 *
 * ## Example
 * ```ts
 * inLoadOrder(parts, () => parts.limiter.schedule(run$));
 * ```
 * @param parts the client's load order (its settings or parts)
 * @param work the call's work
 * @return the work, started after the calls made before it that were waiting
 * @internal
 */
export function inLoadOrder<T>(parts: LoadOrder, work: () => Observable<T>): Observable<T> {
  return inTurn(parts, undefined, work);
}

/**
 * Work that needs a module loaded on first use (`lazyModule`), in its place among the client's
 * calls (see `inLoadOrder`): it starts once the module has loaded and every call made before it
 * has started. Once the module has loaded and nothing waits, the work starts synchronously on
 * subscribe. A failed load errors this call only (the calls after it go on); the next call
 * tries again.
 *
 * ## Example
 * ```ts
 * withModule(parts, bulkModule, ({ clientBulk }) => clientBulk(parts, "echo", rows, {}));
 * ```
 * @param parts the client's load order (its settings or parts)
 * @param lazy the module
 * @param use the call's work with the module
 * @return the work, started once the module is there
 * @internal
 */
export function withModule<M, T>(
  parts: LoadOrder,
  lazy: LazyModule<M>,
  use: (module: M) => Observable<T>
): Observable<T> {
  return inTurn(parts, lazy as LazyModule<unknown>, () => use(lazy.module as M));
}
