import fc from "fast-check";
import { spellRun } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cancelableInvocation, sleep } from "./support/excelInvocations.js";

/** One cell of a recalculation: `=SPELL.RUN("echo", {"i": input}, "i")`, and whether Excel cancels it. */
interface Cell {
  input: number;
  /** Excel cancels it: never, right after the recalculation's calls, or some ms later. */
  cancel: "never" | "atOnce" | number;
}

const cellArbitrary: fc.Arbitrary<Cell> = fc.record({
  input: fc.nat(9),
  cancel: fc.oneof(
    { weight: 6, arbitrary: fc.constant("never" as const) },
    { weight: 2, arbitrary: fc.constant("atOnce" as const) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 120 }) }
  ),
});

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

describe("SPELL.RUN over generated recalculations (repeated, known and new inputs, cancels)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });

  afterAll(async () => {
    await resetSpendingGuard();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  it("should give each cell its own result, start no run for a known input and none twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cellArbitrary, { minLength: 1, maxLength: 24 }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (recalculations) => {
          useKeyValueStorage(memoryStorage());
          await resetSpendingGuard({ documentUrl: "https://contoso.example/paths.xlsx" });
          await resetSharedClient();
          await clearRememberedResults();
          await saveSettings({
            apiKey: fixture.emulator.apiKey,
            baseUrl: fixture.emulator.baseUrl,
            pollBaseUrl: fixture.emulator.pollBaseUrl,
          });
          fixture.emulator.resetStats();
          const runsOf = (input: number) =>
            fixture.emulator.stats.bulkCreatedByKey[JSON.stringify(["echo", { i: input }])] ?? 0;
          /** Inputs some cell got its result for: remembered, never run again. */
          const known = new Set<number>();
          for (const cells of recalculations) {
            const before = new Map(cells.map((cell) => [cell.input, runsOf(cell.input)]));
            const knownBefore = new Set(known);
            // Excel hands the recalculation's calls over in one go, then cancels some of them.
            const invocations = cells.map(() => cancelableInvocation());
            const answers = cells.map((cell, index) =>
              spellRun(
                "echo",
                [[JSON.stringify({ i: cell.input })]],
                [["i"]],
                invocations[index]
              ).then(
                (row) => ({ value: row[0][0] }),
                (error: { code: string; message: string }) => ({ error })
              )
            );
            cells.forEach((cell, index) => {
              if (cell.cancel === "atOnce") invocations[index].cancel();
              else if (cell.cancel !== "never") {
                const cancel = () => invocations[index].cancel();
                void sleep(cell.cancel).then(cancel);
              }
            });
            const outcomes = await Promise.all(answers);
            // Let the cancels still due run, and the stores take the successes.
            await sleep(130);
            outcomes.forEach((outcome, index) => {
              const { input, cancel } = cells[index];
              if ("value" in outcome) {
                must(outcome.value === input, `cell ${index} shows its own input's result`);
                known.add(input);
              } else {
                must(
                  cancel !== "never",
                  `cell ${index} (never cancelled) failed: ${outcome.error.message}`
                );
                must(outcome.error.message.includes("Cancelled by Excel"), "a cancel says so");
              }
            });
            for (const [input, runsBefore] of before) {
              const started = runsOf(input) - runsBefore;
              must(started <= 1, `input ${input} started ${started} times in one recalculation`);
              // A cell had its result before this recalculation: remembered, never run again.
              if (knownBefore.has(input)) must(started === 0, `known input ${input} started again`);
            }
          }
        }
      ),
      { numRuns: 8 }
    );
  }, 120_000);
});
