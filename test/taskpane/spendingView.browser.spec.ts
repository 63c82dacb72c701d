import { BehaviorSubject, Subject } from "rxjs";
import type { SpendingGuardState } from "../../addin/spendingGuard.js";
import { DEFAULT_SPENDING_LIMITS } from "../../addin/spendingPolicy.js";
import { DEFAULT_CHANGING_INPUTS_LIMITS } from "../../addin/changingInputsPolicy.js";
import { mountSpendingView } from "../../taskpane/ui/spendingView.js";

/** The guard's question offers only what can let the waiting runs start. */
describe("the task pane's spending question", () => {
  let root: HTMLElement;
  let stop: () => void = () => undefined;
  const state = (reason: SpendingGuardState["reason"]): SpendingGuardState => ({
    decision: "ask",
    waitingRuns: 3,
    spells: [{ spellId: "summarize", runs: 3 }],
    reason,
    limits: { ...DEFAULT_SPENDING_LIMITS, dailyRunCap: 10 },
    startedToday: 10,
    startedInWindow: 10,
    changingCells: [],
    allowedCells: [],
    blockedCells: [],
    changingInputsLimits: DEFAULT_CHANGING_INPUTS_LIMITS,
  });
  const shown = (id: string) => {
    const node = root.querySelector<HTMLElement>(`#${id}`);
    return node !== null && !node.hidden;
  };

  beforeEach(() => {
    root = document.createElement("div");
    document.body.append(root);
  });
  afterEach(() => {
    stop();
    root.remove();
  });

  it("should not offer Allow this workbook at the daily cap (it cannot pass the cap), but the cap in Settings", () => {
    const state$ = new BehaviorSubject(state("dailyCap"));
    stop = mountSpendingView(root, {
      state$,
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });
    expect(shown("allow-workbook")).toBeFalse();
    expect(shown("daily-cap-settings")).toBeTrue();
    expect(shown("allow-these")).toBeTrue();
    const question = root.querySelector("#spending-question")?.textContent ?? "";
    expect(question).toContain("daily cap of 10 runs");
    expect(question).toContain("raise the daily cap in Settings");
    expect(question).not.toContain("allow this workbook");

    // Below the cap, the threshold asked: allowing the workbook helps again.
    state$.next(state("threshold"));
    expect(shown("allow-workbook")).toBeTrue();
    expect(shown("daily-cap-settings")).toBeFalse();
  });

  it("should take the user to the daily cap field in Settings", () => {
    const tab = document.createElement("button");
    tab.id = "tab-settings";
    const field = document.createElement("input");
    field.id = "daily-run-cap";
    let tabClicked = false;
    tab.addEventListener("click", () => (tabClicked = true));
    root.after(tab, field);
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(state("dailyCap")),
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });
    try {
      root.querySelector<HTMLElement>("#daily-cap-settings")?.click();
      expect(tabClicked).toBeTrue();
      expect(document.activeElement).toBe(field);
    } finally {
      tab.remove();
      field.remove();
    }
  });
  it("should say how many runs started in the window, and the threshold apart from it", () => {
    const tooMany = (startedInWindow: number, runsBeforeAsking: number): SpendingGuardState => ({
      ...state("threshold"),
      startedInWindow,
      limits: { ...DEFAULT_SPENDING_LIMITS, runsBeforeAsking },
    });
    const state$ = new BehaviorSubject(tooMany(45, 10));
    stop = mountSpendingView(root, {
      state$,
      decide: () => Promise.resolve([]),
      rerunCells: () => Promise.resolve(),
    });
    const question = () => root.querySelector("#spending-question")?.textContent ?? "";
    expect(question()).toContain("started 45 runs in the last 10 minutes");
    expect(question()).toContain("starts 10 without asking");

    state$.next(tooMany(172, 0));
    expect(question()).toContain("started 172 runs in the last 10 minutes");
    expect(question()).toContain("starts 0 without asking");
  });

  it("should run again the waiting cells the guard judges again after a change of limits", async () => {
    const rejudged$ = new Subject<readonly string[]>();
    const rerun: (readonly string[])[] = [];
    stop = mountSpendingView(root, {
      state$: new BehaviorSubject(state("dailyCap")),
      decide: () => Promise.resolve([]),
      rerunCells: (addresses) => {
        rerun.push(addresses);
        return Promise.reject(
          new Error("Excel could not recalculate the waiting cells (2 cells).")
        );
      },
      rejudged$,
    });
    rejudged$.next(["Sheet2!D33", "Sheet2!D34"]);
    await new Promise((resolve) => setTimeout(resolve));

    expect(rerun).toEqual([["Sheet2!D33", "Sheet2!D34"]]);
    expect(root.querySelector("#spending-status")?.textContent).toContain("could not recalculate");
    stop();
    rejudged$.next(["Sheet2!D35"]);
    expect(rerun.length).toBe(1);
  });
});
