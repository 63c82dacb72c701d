import type { ServerResponse } from "node:http";
import { EmulatorError } from "../emulatorError.js";
import type { EmulatorContext } from "../emulatorContext.js";
import type { SingleRun } from "../runStore.js";

/**
 * Resolves when a run has finished (wait mode holds the connection until then). After
 * `waitTimeoutMs` it rejects with a 504 `wait_timeout` whose body carries the runId, so the
 * caller can poll the run, which carries on. close() rejects it with a 503. A caller that hangs
 * up stops the wait at once (the run carries on), so abandoned waits hold no timer.
 *
 * @example
 * ```ts
 * await waitForRun(context, run, reply.raw);
 * return { outputs: run.outcome.outputs };
 * ```
 */
export function waitForRun(
  context: EmulatorContext,
  run: SingleRun,
  response: ServerResponse
): Promise<void> {
  const store = context.store;
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = store.now() + context.waitTimeoutMs;
    const settle = (error?: EmulatorError): void => {
      clearTimeout(timer);
      context.pendingWaits.delete(abort);
      response.off("close", hungUp);
      if (error) reject(error);
      else resolve();
    };
    const abort = (): void =>
      settle(new EmulatorError(503, "shutting_down", "The emulator is shutting down"));
    // setTimeout may fire a millisecond early against the clock; check again until finished.
    const check = (): void => {
      const now = store.now();
      if (now >= run.finishAt) return settle();
      if (now >= deadline) {
        return settle(
          new EmulatorError(504, "wait_timeout", "The run did not finish in time; poll it", {
            body: { runId: run.runId },
          })
        );
      }
      timer = setTimeout(check, Math.min(run.finishAt, deadline) - now + 1);
    };
    const hungUp = (): void => {
      if (!response.writableFinished) {
        settle(new EmulatorError(499, "client_closed", "The caller hung up"));
      }
    };
    context.pendingWaits.add(abort);
    response.on("close", hungUp);
    check();
  });
}
