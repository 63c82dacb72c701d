import { defer, NEVER, type Observable } from "rxjs";
import type { SpellEndpoints } from "../../../src/http/SpellApi.js";
import type { RunAnswer, WaitAnswer } from "../../../src/http/parseResponses.js";

/** Every call the core made, by endpoint, with its arguments. */
export interface FakeCalls {
  startAndWait: Array<[string, Record<string, unknown>]>;
  startPolling: Array<[string, Record<string, unknown>]>;
  getRun: Array<string | number>;
  bulkStartOnce: Array<[string, readonly Record<string, unknown>[]]>;
  getBulkRuns: string[];
  cancelBulk: string[];
}

/** Answers per endpoint; each defaults to NEVER. Replace them with marble observables. */
export interface FakeAnswers {
  startAndWait: (spellId: string, inputs: Record<string, unknown>) => Observable<WaitAnswer>;
  startPolling: (spellId: string, inputs: Record<string, unknown>) => Observable<string | number>;
  getRun: (runId: string | number) => Observable<RunAnswer>;
  bulkStartOnce: (
    spellId: string,
    inputsList: readonly Record<string, unknown>[]
  ) => Observable<string>;
  getBulkRuns: (groupId: string) => Observable<RunAnswer[]>;
  cancelBulk: (groupId: string) => Observable<void>;
}

/**
 * A `SpellEndpoints` whose answers are marbles. Cold like the real one: every subscription is one
 * request, recorded in `calls`, and asks `answers` again.
 */
export function fakeEndpoints(
  answers: Partial<FakeAnswers>
): SpellEndpoints & { calls: FakeCalls } {
  const calls: FakeCalls = {
    startAndWait: [],
    startPolling: [],
    getRun: [],
    bulkStartOnce: [],
    getBulkRuns: [],
    cancelBulk: [],
  };
  return {
    calls,
    startAndWait: (spellId, inputs) =>
      defer(() => {
        calls.startAndWait.push([spellId, inputs]);
        return answers.startAndWait?.(spellId, inputs) ?? NEVER;
      }),
    startPolling: (spellId, inputs) =>
      defer(() => {
        calls.startPolling.push([spellId, inputs]);
        return answers.startPolling?.(spellId, inputs) ?? NEVER;
      }),
    getRun: (runId) =>
      defer(() => {
        calls.getRun.push(runId);
        return answers.getRun?.(runId) ?? NEVER;
      }),
    bulkStartOnce: (spellId, inputsList, onSent) =>
      defer(() => {
        calls.bulkStartOnce.push([spellId, inputsList]);
        onSent?.(); // a fake request has no slot to wait for: sent when subscribed
        return answers.bulkStartOnce?.(spellId, inputsList) ?? NEVER;
      }),
    getBulkRuns: (groupId) =>
      defer(() => {
        calls.getBulkRuns.push(groupId);
        return answers.getBulkRuns?.(groupId) ?? NEVER;
      }),
    cancelBulk: (groupId) =>
      defer(() => {
        calls.cancelBulk.push(groupId);
        return answers.cancelBulk?.(groupId) ?? NEVER;
      }),
  };
}

/** `count` bulk entries in one state. */
export function runs(
  count: number,
  state: string,
  outputs: Record<string, unknown> = {}
): RunAnswer[] {
  return Array.from({ length: count }, () => ({ state, outputs }));
}
