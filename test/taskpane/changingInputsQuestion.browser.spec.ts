import { BehaviorSubject } from "rxjs";
import type { SpendingChoice, SpendingGuardState } from "../../addin/spendingGuard.js";
import { DEFAULT_SPENDING_LIMITS } from "../../addin/spendingPolicy.js";
import { DEFAULT_CHANGING_INPUTS_LIMITS } from "../../addin/changingInputsPolicy.js";
import { mountSpendingView } from "../../taskpane/ui/spendingView.js";

/** The guard's question about cells whose inputs change at each calculation. */
describe("the task pane's question about cells whose inputs keep changing", () => {
  let root: HTMLElement;
  let stop: () => void = () => undefined;
  const state = (changes: Partial<SpendingGuardState>): SpendingGuardState => ({
    decision: "ask",
    waitingRuns: 1,
    spells: [{ spellId: "summarize", runs: 1 }],
    reason: "changingInputs",
    limits: DEFAULT_SPENDING_LIMITS,
    startedToday: 3,
    startedInWindow: 3,
    changingCells: ["Sheet1!B2"],
    allowedCells: [],
    blockedCells: [],
    changingInputsLimits: DEFAULT_CHANGING_INPUTS_LIMITS,
    ...changes,
  });
  const shown = (id: string) => {
    const node = root.querySelector<HTMLElement>(`#${id}`);
    return node !== null && !node.hidden && !node.closest("[hidden]");
  };
  const question = () => root.querySelector("#spending-question")?.textContent ?? "";

  beforeEach(() => {
    root = document.createElement("div");
    document.body.append(root);
  });
  afterEach(() => {
    stop();
    root.remove();
  });

  it("should name the cell, offer Allow these cells (not Allow this workbook) and recalculate the cells it returns", async () => {
    const decided: SpendingChoice[] = [];
    const rerun: (readonly string[])[] = [];
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(state({})),
      decide: (choice) => {
        decided.push(choice);
        return Promise.resolve(["Sheet1!B2"]);
      },
      rerunCells: (addresses) => {
        rerun.push(addresses);
        return Promise.resolve();
      },
    });

    expect(shown("spending")).toBeTrue();
    expect(question()).toContain("Sheet1!B2 got more than 3 different inputs in 10 minutes");
    expect(question()).toContain("a formula reading NOW() or RAND()");
    expect(question()).toContain("3 start without asking");
    // Block there blocks the cell, not the workbook.
    expect(question()).toContain("or block this cell (the rest of the workbook runs on)");
    expect(question()).not.toContain("This workbook started");
    expect(shown("allow-these")).toBeTrue();
    expect(shown("allow-cells")).toBeTrue();
    expect(shown("block-workbook")).toBeTrue();
    // Allowing the workbook lifts its limits, not this rule: it would not help the cell.
    expect(shown("allow-workbook")).toBeFalse();

    root.querySelector<HTMLElement>("#allow-cells")?.click();
    await new Promise((resolve) => setTimeout(resolve));
    expect(decided).toEqual(["allowCells"]);
    expect(rerun).toEqual([["Sheet1!B2"]]);
  });

  it("should offer both answers when cells of the workbook's threshold wait too", () => {
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(
        state({
          waitingRuns: 30,
          reason: "threshold",
          startedInWindow: 100,
          changingCells: ["Sheet1!B2", "Sheet1!B3", "Sheet1!B4", "Sheet1!B5", "Sheet1!B6"],
        })
      ),
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });

    expect(question()).toContain("started 100 runs in the last 10 minutes");
    expect(question()).toContain("Sheet1!B2, Sheet1!B3, Sheet1!B4 and 2 more got more than 3");
    // Block there blocks the workbook, and says so.
    expect(question()).toContain(
      "or block this workbook (all its SPELL formulas, these cells too)"
    );
    expect(shown("allow-cells")).toBeTrue();
    expect(shown("allow-workbook")).toBeTrue();
  });

  it("should say which cells run at each change once allowed, with Ask again to take it back", () => {
    const state$ = new BehaviorSubject(
      state({ waitingRuns: 0, spells: [], reason: undefined, changingCells: [] })
    );
    stop = mountSpendingView(root, {
      state$,
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });
    expect(shown("spending")).toBeFalse();

    state$.next({ ...state$.value, allowedCells: ["Sheet1!B2"] });
    expect(shown("spending")).toBeTrue();
    expect(question()).toBe("Sheet1!B2 runs again whenever its inputs change.");
    expect(shown("ask-again")).toBeTrue();
    expect(shown("allow-cells")).toBeFalse();
  });

  it("should say which cells are blocked, with an Ask again of their own", async () => {
    const decided: SpendingChoice[] = [];
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(
        state({
          waitingRuns: 0,
          spells: [],
          reason: undefined,
          changingCells: [],
          blockedCells: ["Sheet1!B2"],
        })
      ),
      decide: (choice) => {
        decided.push(choice);
        return Promise.resolve([]);
      },
      rerunCells: () => Promise.resolve(),
    });

    expect(shown("spending")).toBeTrue();
    expect(question()).toBe(
      "Sheet1!B2 is blocked: it starts no runs (the rest of the workbook runs on)."
    );
    expect(shown("unblock-cells")).toBeTrue();
    root.querySelector<HTMLElement>("#unblock-cells")?.click();
    await new Promise((resolve) => setTimeout(resolve));
    expect(decided).toEqual(["unblockCells"]);
  });

  it("should keep the allowed cells and their Ask again beside a new question", () => {
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(
        state({ changingCells: ["Sheet1!B3"], allowedCells: ["Sheet1!B2"] })
      ),
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });

    expect(question()).toContain("Sheet1!B3 got more than 3");
    expect(shown("spending-decided")).toBeTrue();
    expect(root.querySelector("#spending-decided")?.textContent).toBe(
      "Sheet1!B2 runs again whenever its inputs change."
    );
    expect(shown("ask-again")).toBeTrue();
    expect(shown("allow-these")).toBeTrue();
  });
});
