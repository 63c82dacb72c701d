import fc from "fast-check";
import { spellRun } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import {
  resetSpendingGuard,
  spendingGuard,
  type SpendingChoice,
} from "../../addin/spendingGuard.js";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { cancelableInvocation } from "./support/excelInvocations.js";

const CELLS = 3;
const DOCUMENT = "https://contoso.example/shared/volatile-paths.xlsx";

/** One step: Excel's calculations, the user's edits and answers, a reload of the add-in. */
type Step =
  | { kind: "edit"; cell: number; variant: number }
  | { kind: "volatile"; cell: number; on: boolean }
  | { kind: "recalculate" }
  /** The pane's answer; with `moved`, NOW() moved on before the pane recalculates the cells. */
  | { kind: "answer"; choice: SpendingChoice; moved: boolean }
  | { kind: "reload" };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("edit"),
      cell: fc.nat(CELLS - 1),
      variant: fc.nat(3),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("volatile"),
      cell: fc.nat(CELLS - 1),
      on: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.constant({ kind: "recalculate" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("answer"),
      choice: fc.constantFrom<SpendingChoice>(
        "allowThese",
        "allowCells",
        "allowWorkbook",
        "block",
        "ask",
        "unblockCells"
      ),
      moved: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) }
);

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

/**
 * `=SPELL.RUN("echo", inputs, "cell")` cells over generated sessions against the emulator: the
 * real functions, client, remembered results and guard. Each calculation is checked against the
 * service's own count of runs: an input started at most once, a calculation of inputs run before
 * starts nothing, no cell runs a 4th input without an answer, an allowed cell runs.
 */
describe("SPELL.RUN cells reading NOW() over generated sessions (edits, answers, reloads)", () => {
  const fixture = useEmulator({ timeScale: 0.02, countBulkInputs: true });

  afterAll(async () => {
    await resetSpendingGuard();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  it("should start no input twice, none already run, and no cell's 4th input without an answer", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 4, maxLength: 14, size: "max" }),
        async (steps) => {
          useKeyValueStorage(memoryStorage());
          await resetSpendingGuard({ documentUrl: DOCUMENT });
          await resetSharedClient();
          await clearRememberedResults();
          await saveSettings({
            apiKey: fixture.emulator.apiKey,
            baseUrl: fixture.emulator.baseUrl,
            pollBaseUrl: fixture.emulator.pollBaseUrl,
          });
          fixture.emulator.resetStats();

          let tick = 0;
          const cells = Array.from({ length: CELLS }, () => ({
            variant: 0,
            now: undefined as number | undefined,
            /** Inputs this cell started, and whether an answer allowed the start. */
            started: new Map<string, boolean>(),
            waitingWith: undefined as string | undefined,
          }));
          let decision: "ask" | "allowWorkbook" | "block" = "ask";
          let allowedOnce = new Set<string>();
          /** The waiting cells "Allow these" let start their next run, whatever its inputs. */
          let allowedOnceCells = new Set<number>();
          /** Starts each cell made with that permission since the answer: one at most. */
          const onceStarts = new Map<number, number>();
          const allowedCells = new Set<number>();
          /** Cells blocked by Block on a question about them only. */
          const blockedCells = new Set<number>();
          const address = (cell: number) => `Sheet1!E${cell + 2}`;
          const inputsOf = (cell: number) => ({
            cell,
            variant: cells[cell].variant,
            now: cells[cell].now ?? null,
          });
          const keyOf = (cell: number) => JSON.stringify(["echo", inputsOf(cell)]);
          const runsOf = (key: string) => fixture.emulator.stats.bulkCreatedByKey[key] ?? 0;
          const known = () => new Set(cells.flatMap((model) => [...model.started.keys()]));

          /** Excel calculates these cells together. */
          const calculate = async (which: number[]) => {
            const before = which.map((cell) => {
              const key = keyOf(cell);
              const model = cells[cell];
              const isKnown = known().has(key);
              const once = allowedOnceCells.has(cell);
              // A known input is answered from what is remembered or still running, starting
              // nothing, whatever was decided (a Block refuses new runs only).
              const permitted =
                isKnown ||
                (decision !== "block" &&
                  !blockedCells.has(cell) &&
                  (allowedOnce.has(key) ||
                    once ||
                    allowedCells.has(cell) ||
                    model.started.size < 3));
              return {
                cell,
                key,
                isKnown,
                permitted,
                once,
                decided: allowedOnce.has(key) || once,
              };
            });
            const outcomes = await Promise.all(
              which.map((cell) =>
                spellRun(
                  "echo",
                  [[JSON.stringify(inputsOf(cell))]],
                  [["cell"]],
                  Object.assign(cancelableInvocation(), { address: address(cell) })
                ).then(
                  (row) => ({ value: row[0][0] as unknown, message: undefined }),
                  (error: { message: string }) => ({ value: undefined, message: error.message })
                )
              )
            );
            before.forEach(({ cell, key, isKnown, permitted, once, decided }, index) => {
              const outcome = outcomes[index];
              const model = cells[cell];
              must(runsOf(key) <= 1, `input ${key} started ${runsOf(key)} times`);
              must(
                (outcome.message === undefined) === permitted,
                `cell ${cell} ${outcome.message ?? "ran"}, expected ${permitted ? "a run" : "a refusal"}`
              );
              if (outcome.message === undefined) {
                must(outcome.value === cell, `cell ${cell} shows its own result`);
                // Answered without a run of its own: the cell leaves the question.
                model.waitingWith = undefined;
                allowedOnceCells.delete(cell);
                if (isKnown) return;
                must(runsOf(key) === 1, `a new input of cell ${cell} ran`);
                model.started.set(key, decided || allowedCells.has(cell));
                allowedOnce.delete(key);
                if (once) {
                  onceStarts.set(cell, (onceStarts.get(cell) ?? 0) + 1);
                  must(onceStarts.get(cell) === 1, `cell ${cell} ran twice on one Allow these`);
                }
                model.waitingWith = undefined;
                const unasked = [...model.started.values()].filter((allowed) => !allowed).length;
                must(unasked <= 3, `cell ${cell} ran ${unasked} inputs without an answer`);
              } else {
                must(runsOf(key) === 0, `a refused input of cell ${cell} started nothing`);
                must(
                  !blockedCells.has(cell) || outcome.message.startsWith("Blocked: this cell"),
                  `a blocked cell says so: ${outcome.message}`
                );
                if (decision !== "block" && !blockedCells.has(cell)) model.waitingWith = key;
              }
            });
          };

          for (const step of steps) {
            if (step.kind === "edit") {
              cells[step.cell].variant = step.variant;
              await calculate([step.cell]);
            } else if (step.kind === "volatile") {
              cells[step.cell].now = step.on ? ++tick : undefined;
              await calculate([step.cell]);
            } else if (step.kind === "recalculate") {
              const volatile = cells.flatMap((model, cell) =>
                model.now === undefined ? [] : [cell]
              );
              for (const cell of volatile) cells[cell].now = ++tick;
              if (volatile.length > 0) await calculate(volatile);
            } else if (step.kind === "reload") {
              await resetSpendingGuard({ documentUrl: DOCUMENT });
              allowedOnce = new Set();
              allowedOnceCells = new Set();
              for (const model of cells) model.waitingWith = undefined;
            } else {
              const waiting = cells.flatMap((model, cell) =>
                model.waitingWith === undefined ? [] : [cell]
              );
              if (step.choice === "allowThese") {
                onceStarts.clear();
                for (const cell of waiting) allowedOnceCells.add(cell);
              } else if (step.choice === "allowCells") {
                for (const cell of waiting) allowedCells.add(cell);
              } else if (step.choice === "unblockCells") {
                blockedCells.clear();
              } else if (step.choice === "block" && waiting.length > 0) {
                // A question about the per-cell rule's cells only: Block blocks those cells.
                for (const cell of waiting) {
                  blockedCells.add(cell);
                  allowedCells.delete(cell);
                }
              } else {
                decision = step.choice;
                if (step.choice !== "allowWorkbook") allowedCells.clear();
                if (step.choice === "block") {
                  allowedOnce.clear();
                  allowedOnceCells.clear();
                }
                if (step.choice === "ask") blockedCells.clear();
              }
              // The blocked cells' own Ask again leaves the waiting cells waiting.
              if (step.choice !== "unblockCells") {
                for (const model of cells) model.waitingWith = undefined;
              }
              const addresses = await (await spendingGuard()).decide(step.choice);
              // NOW() moved on before the pane recalculated the cells: new inputs.
              if (step.moved) {
                for (const model of cells) if (model.now !== undefined) model.now = ++tick;
              }
              const returned = addresses.map((at) => Number(at.slice("Sheet1!E".length)) - 2);
              if (returned.length > 0) await calculate(returned);
            }
          }
        }
      ),
      { numRuns: Number(process.env.PATHS_RUNS ?? 5) }
    );
  }, 120_000);
});
