import fc from "fast-check";
import { SpendingGuard } from "../../addin/spending/SpendingGuard.js";
import { readStoredSpending } from "../../addin/spending/storedSpending.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import type { SpendingChoice, SpendingGuardState } from "../../addin/spendingGuard.js";

const MINUTE = 60_000;
const CELLS = 4;
/** The per-cell rule's defaults: 3 different inputs in 10 minutes start without asking. */
const INPUTS_BEFORE_ASKING = 3;
const WINDOW = 10 * MINUTE;

/** One step of a user's session with a workbook of `SPELL.RUN` cells. */
type Step =
  /** The user types a variant of a cell's inputs (a variant typed before is remembered). */
  | { kind: "edit"; cell: number; variant: number }
  /** The user makes a cell's inputs read NOW() (or stops it): the cell is calculated. */
  | { kind: "volatile"; cell: number; on: boolean }
  /** An edit elsewhere: Excel calculates the cells reading NOW() again, with new inputs. */
  | { kind: "recalculate" }
  /** Ctrl+Alt+F9: every cell is calculated, those with unchanged inputs too. */
  | { kind: "calculateAll" }
  /** The pane's answer; with `moved`, NOW() moved on before the pane recalculates the cells. */
  | { kind: "answer"; choice: SpendingChoice; moved: boolean }
  /** Excel reloads the add-in: the guard comes back from the add-in's storage. */
  | { kind: "reload" }
  | { kind: "wait"; ms: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("edit"),
      cell: fc.nat(CELLS - 1),
      variant: fc.nat(4),
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
  { weight: 6, arbitrary: fc.constant({ kind: "recalculate" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "calculateAll" as const }) },
  {
    weight: 3,
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
  { weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) },
  // Whole seconds, up to past the window.
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("wait"),
      ms: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constant(600)).map((s) => s * 1000),
    }),
  }
);

/** A broken rule: thrown, so that fast-check shrinks the path and prints its seed. */
function must(holds: boolean, rule: string): void {
  if (!holds) throw new Error(`broken: ${rule}`);
}

/** One cell of the model: its inputs, and what it shows. */
interface CellModel {
  variant: number;
  /** The NOW() it reads, or `undefined` when its inputs read no volatile function. */
  now: number | undefined;
  shows: "empty" | "ran" | "waiting" | "changing" | "blocked";
  /** The run key it last waited with. */
  waitingKey?: string;
  /** Its starts: when, which inputs, and whether the user's answer allowed that one. */
  starts: { at: number; key: string; decided: boolean }[];
}

/**
 * The spending guard's per-cell rule over generated sessions: cells edited into variants, cells
 * made to read NOW() and calculated again at every edit elsewhere, full recalculations, every
 * answer of the pane (each followed by the recalculation of the cells it returns), reloads of
 * the add-in (the guard read back from storage) and time passing. The model is Excel and the
 * core: a cell whose inputs were run is answered from remembered results and asks the guard
 * nothing; every other calculation asks the guard, and the model says whether it may start.
 */
describe("SpendingGuard's per-cell rule over generated sessions (NOW() cells, edits, answers, reloads)", () => {
  afterAll(() => useKeyValueStorage(undefined));

  it("should start no cell's 4th different input in 10 minutes without an answer, run every allowed cell, none twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 50, size: "max" }),
        async (steps) => {
          useKeyValueStorage(memoryStorage());
          let now = new Date(2026, 10, 26, 9, 0, 0).getTime();
          const storageKey = "paths-document";
          const limits = { runsBeforeAsking: 1000, dailyRunCap: 100_000 };
          let guard = new SpendingGuard(storageKey, undefined, limits, () => now);
          let state!: SpendingGuardState;
          let subscription = guard.state$.subscribe((next) => (state = next));

          // The model.
          let decision: "ask" | "allowWorkbook" | "block" = "ask";
          let allowedOnce = new Set<string>();
          /** The waiting cells "Allow these" let start their next run, whatever its inputs. */
          let allowedOnceCells = new Set<number>();
          /** Starts each cell made with that permission since the answer: one at most. */
          const onceStarts = new Map<number, number>();
          const allowedCells = new Set<number>();
          /** Cells blocked by Block on a question about them only. */
          const blockedCells = new Set<number>();
          const remembered = new Set<string>();
          let clockTick = 0;
          const cells: CellModel[] = Array.from({ length: CELLS }, () => ({
            variant: 0,
            now: undefined,
            shows: "empty",
            starts: [],
          }));
          const address = (cell: number) => `Sheet1!C${cell + 2}`;
          const cellOf = (at: string) => Number(at.slice("Sheet1!C".length)) - 2;
          const keyOf = (cell: number) =>
            `summarize ${JSON.stringify({ cell, variant: cells[cell].variant, now: cells[cell].now })}`;
          const inputsInWindow = (cell: number) =>
            new Set(cells[cell].starts.filter((s) => s.at > now - WINDOW).map((s) => s.key));

          /** Excel calls the cell's function; the core answers remembered inputs itself. */
          const calculate = (cell: number) => {
            const model = cells[cell];
            const key = keyOf(cell);
            if (remembered.has(key)) {
              // The cell's function tells the guard it was answered without a run.
              guard.answeredWithoutRun(address(cell));
              model.shows = "ran";
              model.waitingKey = undefined;
              allowedOnceCells.delete(cell);
              return;
            }
            const recent = inputsInWindow(cell);
            const once = allowedOnceCells.has(cell);
            const decided = allowedOnce.has(key) || once;
            const permitted =
              decision !== "block" &&
              !blockedCells.has(cell) &&
              (decided ||
                allowedCells.has(cell) ||
                recent.has(key) ||
                recent.size + 1 <= INPUTS_BEFORE_ASKING);
            const refusal = guard.admit("summarize", key, 1, address(cell), undefined, true);
            must(
              !refusal === permitted,
              `cell ${cell} ${refusal ? `refused (${refusal.message})` : "started"} with ${recent.size} inputs in the window`
            );
            if (!refusal) {
              must(!remembered.has(key), `inputs ${key} started twice`);
              model.starts.push({ at: now, key, decided: decided || allowedCells.has(cell) });
              remembered.add(key);
              allowedOnce.delete(key);
              allowedOnceCells.delete(cell);
              if (once) {
                onceStarts.set(cell, (onceStarts.get(cell) ?? 0) + 1);
                must(onceStarts.get(cell) === 1, `cell ${cell} started twice on one Allow these`);
              }
              model.shows = "ran";
              model.waitingKey = undefined;
              // Without an answer, a cell starts runs for at most 3 different inputs in 10 minutes.
              const undecided = new Set(
                model.starts.filter((s) => s.at > now - WINDOW && !s.decided).map((s) => s.key)
              );
              must(
                undecided.size <= INPUTS_BEFORE_ASKING,
                `cell ${cell} started ${undecided.size} different inputs in 10 minutes unasked`
              );
            } else if (refusal.reason === "blocked") {
              must(
                decision === "block" || blockedCells.has(cell),
                "only a blocked workbook or cell says Blocked"
              );
              model.shows = "blocked";
              model.waitingKey = undefined;
            } else {
              must(refusal.reason === "changingInputs", `the rule's refusal: ${refusal.reason}`);
              must(
                refusal.message.includes("different inputs in 10 minutes") &&
                  refusal.message.includes("NOW()") &&
                  refusal.message.includes("Open Spell Run (Home tab)") &&
                  // A cell shows at most 250 characters of a message (`excelError`).
                  refusal.message.length <= 250,
                `the cell says why and where to answer: ${refusal.message}`
              );
              model.shows = "changing";
              model.waitingKey = key;
            }
          };
          const recalculate = (addresses: readonly string[]) => {
            const returned = addresses.map(cellOf);
            must(new Set(returned).size === returned.length, "each cell returned once");
            for (const cell of returned) calculate(cell);
          };

          try {
            for (const step of steps) {
              if (step.kind === "edit") {
                cells[step.cell].variant = step.variant;
                calculate(step.cell);
              } else if (step.kind === "volatile") {
                cells[step.cell].now = step.on ? ++clockTick : undefined;
                calculate(step.cell);
              } else if (step.kind === "recalculate") {
                cells.forEach((model, cell) => {
                  if (model.now === undefined) return;
                  model.now = ++clockTick;
                  calculate(cell);
                });
              } else if (step.kind === "calculateAll") {
                cells.forEach((model, cell) => {
                  if (model.now !== undefined) model.now = ++clockTick;
                  calculate(cell);
                });
              } else if (step.kind === "wait") {
                now += step.ms;
              } else if (step.kind === "reload") {
                await guard.flush();
                subscription.unsubscribe();
                guard = new SpendingGuard(
                  storageKey,
                  await readStoredSpending(storageKey),
                  limits,
                  () => now
                );
                subscription = guard.state$.subscribe((next) => (state = next));
                // Allowed once is kept until the add-in closes; the cells still show their #N/A.
                allowedOnce = new Set();
                allowedOnceCells = new Set();
                for (const model of cells) model.waitingKey = undefined;
              } else {
                // The cells waiting in the guard's question (one shown remembered since asks still).
                const changing = cells.flatMap((model, cell) =>
                  model.waitingKey !== undefined ? [cell] : []
                );
                const choice = step.choice;
                if (choice === "allowThese") {
                  onceStarts.clear();
                  for (const cell of changing) allowedOnceCells.add(cell);
                } else if (choice === "allowCells") {
                  for (const cell of changing) allowedCells.add(cell);
                } else if (choice === "unblockCells") {
                  blockedCells.clear();
                } else if (choice === "block" && changing.length > 0) {
                  // A question about the per-cell rule's cells only: Block blocks those cells.
                  for (const cell of changing) {
                    blockedCells.add(cell);
                    allowedCells.delete(cell);
                  }
                } else {
                  decision = choice;
                  if (choice === "block") {
                    allowedOnce.clear();
                    allowedOnceCells.clear();
                  }
                  if (choice === "block" || choice === "ask") allowedCells.clear();
                  if (choice === "ask") blockedCells.clear();
                }
                // The blocked cells' own Ask again leaves the waiting cells waiting.
                if (choice !== "unblockCells") {
                  for (const model of cells) model.waitingKey = undefined;
                }
                const returned = await guard.decide(choice);
                // NOW() moved on before the pane recalculated the cells: new inputs.
                if (step.moved) {
                  for (const model of cells) if (model.now !== undefined) model.now = ++clockTick;
                }
                recalculate(returned);
                // An allowed cell runs (unless blocked), with the inputs it has now.
                if (choice === "allowThese" || choice === "allowCells") {
                  for (const cell of changing) {
                    must(cells[cell].shows === "ran", `allowed cell ${cell} ran`);
                  }
                }
                // Blocked cells show it; the other cells are untouched.
                if (choice === "block" && changing.length > 0) {
                  for (const cell of changing) {
                    must(cells[cell].shows === "blocked", `blocked cell ${cell} shows it`);
                  }
                }
              }

              // The pane's question: each waiting cell once, the cells of the rule named.
              await Promise.resolve();
              const waiting = cells.flatMap((model, cell) =>
                model.waitingKey !== undefined ? [cell] : []
              );
              must(
                state.waitingRuns === waiting.length,
                `${state.waitingRuns} runs wait, ${waiting.length} cells wait`
              );
              must(
                state.changingCells.join() === waiting.map(address).sort().join(),
                `the question names ${state.changingCells.join()}`
              );
              must(state.reason === (waiting.length > 0 ? "changingInputs" : undefined), "reason");
              must(
                state.allowedCells.join() === [...allowedCells].sort().map(address).join(),
                `allowed cells ${state.allowedCells.join()}`
              );
              must(state.decision === decision, "the decision shown");
              must(
                state.blockedCells.join() === [...blockedCells].sort().map(address).join(),
                `blocked cells ${state.blockedCells.join()}`
              );
            }
          } finally {
            subscription.unsubscribe();
          }
        }
      ),
      { numRuns: 300 }
    );
  });
});
