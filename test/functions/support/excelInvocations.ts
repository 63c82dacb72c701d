/**
 * Invocation objects shaped as Excel passes them to custom functions: Excel sets
 * `isInValuePreview` and `setResult`, and calls the `onCanceled` the function assigned when it
 * cancels the call (formula edited, cell cleared, workbook closed). Built by the playground's
 * runtime (`createInvocation`), so the specs and the playground call the functions alike.
 */
import { createInvocation } from "../../../playground/functions/createInvocation.js";

/** A cancelable invocation (SPELL.RUN) and a way to cancel it as Excel would. */
export interface TestCancelableInvocation extends CustomFunctions.CancelableInvocation {
  /** Calls the function's `onCanceled`, as Excel does. */
  cancel(): void;
}

/**
 * An invocation for a cancelable function.
 *
 * @example
 * const invocation = cancelableInvocation({ preview: true });
 */
export function cancelableInvocation(
  options: { preview?: boolean } = {}
): TestCancelableInvocation {
  const invocation = Object.assign(
    createInvocation({ functionName: "SPELL.RUN", preview: options.preview }),
    { cancel: () => invocation.onCanceled?.() }
  ) as unknown as TestCancelableInvocation;
  return invocation;
}

/** A streaming invocation (SPELL.BULK) that records every result Excel would show. */
export interface TestStreamingInvocation
  extends CustomFunctions.StreamingInvocation<unknown[][]>, TestCancelableInvocation {
  /** Every value passed to `setResult`, in order. */
  results: (unknown[][] | CustomFunctions.Error)[];
  /** Resolves with the first result (already set or coming) for which `test` is true. */
  resultWhere(
    test: (result: unknown[][] | CustomFunctions.Error) => boolean,
    timeoutMs?: number
  ): Promise<unknown[][] | CustomFunctions.Error>;
}

/**
 * An invocation for a streaming function.
 *
 * @example
 * const invocation = streamingInvocation();
 * spellBulk("echo", table, null, invocation);
 * const final = await invocation.resultWhere((result) => isFinal(result));
 */
export function streamingInvocation(options: { preview?: boolean } = {}): TestStreamingInvocation {
  const waiters: {
    test: (result: unknown[][] | CustomFunctions.Error) => boolean;
    resolve: (r: unknown[][] | CustomFunctions.Error) => void;
  }[] = [];
  const setResult = (value: unknown[][] | CustomFunctions.Error) => {
    invocation.results.push(value);
    for (const waiter of [...waiters]) {
      if (waiter.test(value)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(value);
      }
    }
  };
  const invocation: TestStreamingInvocation = {
    ...(createInvocation({
      functionName: "SPELL.BULK",
      preview: options.preview,
    }) as unknown as CustomFunctions.StreamingInvocation<unknown[][]>),
    results: [],
    setResult,
    cancel: () => invocation.onCanceled?.(),
    resultWhere: (test, timeoutMs = 10_000) => {
      const found = invocation.results.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such result within ${timeoutMs} ms`)),
          timeoutMs
        );
        waiters.push({
          test,
          resolve: (result) => {
            clearTimeout(timer);
            resolve(result);
          },
        });
      });
    },
  };
  return invocation;
}

/**
 * Waits until `check` passes (polling every 20 ms), for conditions seen from outside such as the
 * emulator's counters. Rejects after `timeoutMs`.
 *
 * @example
 * await eventually(async () => (await emulatorStats()).singleInFlight === 1);
 */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
