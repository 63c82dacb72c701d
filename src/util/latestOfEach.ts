import { Observable, Subscription } from "rxjs";

/**
 * rxjs `combineLatest(sources)`: once every source has emitted, an array of the latest value of
 * each on every value; completes when all complete, errors (unsubscribing the others) when one
 * errors; an empty list completes at once. Built on the Observable constructor because rxjs's
 * `combineLatest` goes through `from`, whose scheduling code (about 3 KB minified) a bundler then
 * puts in every page's first load.
 *
 * ```
 * a:       ──a────c──|
 * b:       ─────b─────|
 * result:  ─────x─y───|     (x: [a, b], y: [c, b])
 * ```
 *
 * ## Example
 * ```ts
 * latestOfEach(chunkViews).pipe(map((views) => snapshotOf(views)));
 * ```
 * @param sources the streams, subscribed in order
 * @return a cold Observable of arrays, one element per source
 */
export function latestOfEach<T>(sources: readonly Observable<T>[]): Observable<T[]> {
  return new Observable<T[]>((subscriber) => {
    const latest = new Array<T>(sources.length);
    let waitingForFirst = sources.length;
    let active = sources.length;
    if (active === 0) {
      subscriber.complete();
      return undefined;
    }
    const subscriptions = new Subscription();
    sources.forEach((source, index) => {
      // A source that errored while being subscribed ends it all: the rest are never subscribed.
      if (subscriber.closed) return;
      let seen = false;
      subscriptions.add(
        source.subscribe({
          next: (value) => {
            latest[index] = value;
            if (!seen) {
              seen = true;
              waitingForFirst--;
            }
            if (waitingForFirst === 0) subscriber.next(latest.slice());
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            if (--active === 0) subscriber.complete();
          },
        })
      );
    });
    return subscriptions;
  });
}
