import fc from "fast-check";
import { SpendingGuard } from "../../addin/spending/SpendingGuard.js";
import type { SpendingChoice, SpendingGuardState } from "../../addin/spendingGuard.js";

const MINUTE = 60_000;
const CELLS = 12;

/** One step of a user's session with the guard. */
type Step =
  | { kind: "type"; cell: number }
  | { kind: "answer"; choice: Exclude<SpendingChoice, "unblockCells"> }
  | { kind: "settings"; runsBeforeAsking: number; dailyRunCap: number }
  | { kind: "wait"; ms: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("type"), cell: fc.nat(CELLS - 1) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("answer"),
      choice: fc.constantFrom<Exclude<SpendingChoice, "unblockCells">>(
        "allowThese",
        "allowWorkbook",
        "block",
        "ask"
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("settings"),
      runsBeforeAsking: fc.nat(6),
      dailyRunCap: fc.nat(16),
    }),
  },
  // Whole seconds: starts of one second share a ledger entry, dated by the latest.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("wait"),
      ms: fc.oneof(fc.integer({ min: 0, max: 120 }), fc.constant(600)).map((s) => s * 1000),
    }),
  }
);

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

/**
 * The guard between a workbook's cells and the pane, driven by generated sessions: cells typed,
 * the pane's answers (each followed by the recalculation of the cells it returns), limits changed
 * in Settings (the cells `rejudged$` returns recalculated) and time passing. A model of the
 * user's permissions checks every start and every refusal.
 */
describe("SpendingGuard over generated sessions (Block, Ask again, Allow, Settings)", () => {
  it("should start no run without permission, none twice, and keep every refused cell asked or blocked", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(6),
        fc.nat(16),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 40 }),
        async (runsBeforeAsking, dailyRunCap, steps) => {
          let now = new Date(2026, 10, 26, 9, 0, 0).getTime();
          let limits = { runsBeforeAsking, dailyRunCap };
          const guard = new SpendingGuard(undefined, undefined, limits, () => now);
          let state!: SpendingGuardState;
          const stateSubscription = guard.state$.subscribe((next) => (state = next));
          const rejudged: string[][] = [];
          const rejudgedSubscription = guard.rejudged$.subscribe((cells) => rejudged.push(cells));

          // The model: what the user allowed, and what each cell shows.
          let decision: "ask" | "allowWorkbook" | "block" = "ask";
          const allowedOnce = new Set<number>();
          const starts: number[] = [];
          const shows = new Map<number, "ran" | "waiting" | "blocked">();
          const inWindow = () => starts.filter((at) => at > now - 10 * MINUTE).length;
          const cellsShowing = (what: "waiting" | "blocked") =>
            [...shows].filter(([, shown]) => shown === what).map(([cell]) => cell);
          const address = (cell: number) => `Sheet1!B${cell + 2}`;
          const cellOf = (at: string) => Number(at.slice("Sheet1!B".length)) - 2;

          /** Excel calls the cell's function: a cell that ran shows its remembered result. */
          const calculate = (cell: number) => {
            if (shows.get(cell) === "ran") return;
            const permitted =
              decision !== "block" &&
              (allowedOnce.has(cell) ||
                (starts.length + 1 <= limits.dailyRunCap &&
                  (decision === "allowWorkbook" || inWindow() + 1 <= limits.runsBeforeAsking)));
            const windowBefore = inWindow();
            const refusal = guard.admit("summarize", `run ${cell}`, 1, address(cell));
            must(!refusal === permitted, `cell ${cell} ${refusal ? "refused" : "started"}`);
            if (!refusal) {
              starts.push(now);
              allowedOnce.delete(cell);
              shows.set(cell, "ran");
            } else if (refusal.reason === "blocked") {
              must(decision === "block", "only a blocked workbook says Blocked");
              shows.set(cell, "blocked");
            } else {
              shows.set(cell, "waiting");
              if (refusal.reason === "threshold") {
                must(
                  refusal.message.includes(`started ${windowBefore} runs`),
                  `the cell names the runs in the window (${windowBefore}): ${refusal.message}`
                );
              }
            }
          };
          const recalculate = (addresses: readonly string[], expected: readonly number[]) => {
            const cells = addresses.map(cellOf);
            must(new Set(cells).size === cells.length, "each cell returned once");
            must(
              [...expected].sort().join() === [...cells].sort().join(),
              `cells returned ${[...cells].sort().join()}, expected ${[...expected].sort().join()}`
            );
            for (const cell of cells) calculate(cell);
          };

          try {
            for (const step of steps) {
              if (step.kind === "type") calculate(step.cell);
              else if (step.kind === "wait") now += step.ms;
              else if (step.kind === "settings") {
                const waitingBefore = cellsShowing("waiting");
                const changed =
                  step.runsBeforeAsking !== limits.runsBeforeAsking ||
                  step.dailyRunCap !== limits.dailyRunCap;
                limits = { runsBeforeAsking: step.runsBeforeAsking, dailyRunCap: step.dailyRunCap };
                guard.useLimits(limits);
                // The pane recalculates what the guard released: they run or ask again.
                const released = rejudged.splice(0);
                const expected = changed ? waitingBefore : [];
                if (expected.length === 0) must(released.length === 0, "nothing to judge again");
                else recalculate(released.flat(), expected);
              } else {
                const waitingBefore = cellsShowing("waiting");
                const blockedBefore = cellsShowing("blocked");
                if (step.choice === "allowThese")
                  for (const cell of waitingBefore) allowedOnce.add(cell);
                if (step.choice !== "allowThese" && step.choice !== "allowCells")
                  decision = step.choice;
                if (step.choice === "block") allowedOnce.clear();
                const blockEnds = step.choice === "ask" || step.choice === "allowWorkbook";
                const addresses = await guard.decide(step.choice);
                // The pane recalculates the cells returned: blocked ones come back when the block ends.
                recalculate(
                  addresses,
                  blockEnds ? [...waitingBefore, ...blockedBefore] : waitingBefore
                );
                if (step.choice === "allowThese") {
                  for (const cell of waitingBefore) {
                    must(
                      decision === "block" || shows.get(cell) === "ran",
                      `allowed cell ${cell} ran`
                    );
                  }
                }
              }

              // The pane's question matches the cells and the limits in force.
              await Promise.resolve();
              const waiting = cellsShowing("waiting");
              must(
                state.waitingRuns === waiting.length,
                `${state.waitingRuns} waiting, cells show ${waiting.length}`
              );
              must(state.decision === decision, "the decision shown");
              must(
                state.limits.runsBeforeAsking === limits.runsBeforeAsking &&
                  state.limits.dailyRunCap === limits.dailyRunCap,
                "the limits shown are the limits in force"
              );
              must(state.startedToday === starts.length, "the day's count");
              if (waiting.length > 0 && state.reason === "dailyCap") {
                must(
                  starts.length + 1 > limits.dailyRunCap,
                  `the question says the cap of ${limits.dailyRunCap} is reached at ${starts.length}`
                );
              }
              if (decision === "block")
                must(waiting.length === 0, "nothing waits in a blocked workbook");
            }
          } finally {
            stateSubscription.unsubscribe();
            rejudgedSubscription.unsubscribe();
          }
        }
      ),
      { numRuns: 300 }
    );
  });
});
