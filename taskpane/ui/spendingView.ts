import type { Observable } from "rxjs";
import type { SpendingChoice, SpendingGuardState } from "../../addin/spendingGuard.js";
import { element } from "./element.js";

/**
 * What the spending view needs: the guard's state, a way to answer, and a way to make the cells
 * that waited run again (see `rerunWaitingCells`).
 *
 * ## Example
 * ```ts
 * const guard = await spendingGuard();
 * mountSpendingView(box, {
 *   state$: guard.state$,
 *   decide: (c) => guard.decide(c),
 *   rerunCells: (addresses) => rerunWaitingCells(addresses, guard),
 *   rejudged$: guard.rejudged$,
 * });
 * ```
 */
export interface SpendingViewDeps {
  state$: Observable<SpendingGuardState>;
  decide(choice: SpendingChoice): Promise<string[]>;
  /** Runs the waiting cells again; throws with a message for the user when it cannot. */
  rerunCells(addresses: readonly string[]): Promise<void>;
  /**
   * The waiting cells the guard released when the limits changed in Settings
   * (`SpendingGuard.rejudged$`): run again, so they are judged under the new limits.
   */
  rejudged$?: Observable<readonly string[]>;
}

/**
 * The spending guard's question in the task pane: how many runs wait and for which spells, with
 * Allow these, Allow this workbook (at the daily cap, which it cannot pass: the cap in Settings)
 * and Block; once the workbook is allowed or blocked, that
 * decision and "Ask again". Hidden while there is nothing to say.
 *
 * ## Example
 * ```ts
 * const stop = mountSpendingView(document.getElementById("spending")!, deps);
 * ```
 *
 * @param root Where the view goes (its content is replaced).
 * @param deps The guard and the workbook.
 * @return A function that stops following the guard.
 */
export function mountSpendingView(root: HTMLElement, deps: SpendingViewDeps): () => void {
  const box = element("section", {
    id: "spending",
    class: "notice",
    hidden: true,
    role: "region",
    "aria-label": "Spending guard",
  });
  const text = element("p", { id: "spending-question" });
  const status = element("p", { id: "spending-status", role: "status", "aria-live": "polite" });
  /** The waiting cells only: other SPELL cells are neither called nor paid again. */
  const rerun = async (addresses: () => Promise<readonly string[]>) => {
    try {
      await deps.rerunCells(await addresses());
      status.textContent = "";
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  };
  const button = (id: string, label: string, choice: SpendingChoice, accent = false) => {
    const node = element("fluent-button", { id, appearance: accent ? "accent" : undefined }, label);
    node.addEventListener("click", async () => {
      node.setAttribute("disabled", "");
      await rerun(() => deps.decide(choice));
      node.removeAttribute("disabled");
    });
    return node;
  };
  const allowWorkbook = button("allow-workbook", "Allow this workbook", "allowWorkbook");
  // At the daily cap, allowing the workbook cannot help (the cap holds for it): the cap itself,
  // in Settings, can.
  const capSettings = element(
    "fluent-button",
    { id: "daily-cap-settings" },
    "Daily cap in Settings"
  );
  capSettings.addEventListener("click", () => {
    document.getElementById("tab-settings")?.click();
    const field = document.getElementById("daily-run-cap");
    field?.scrollIntoView({ block: "nearest" });
    field?.focus();
  });
  const askActions = element(
    "div",
    { class: "actions" },
    button("allow-these", "Allow these", "allowThese", true),
    allowWorkbook,
    capSettings,
    button("block-workbook", "Block", "block")
  );
  const decidedActions = element(
    "div",
    { class: "actions" },
    button("ask-again", "Ask again", "ask")
  );
  box.append(text, askActions, decidedActions, status);
  root.replaceChildren(box);

  const subscription = deps.state$.subscribe((state) => {
    const waiting = state.waitingRuns > 0;
    box.hidden = !waiting && state.decision === "ask";
    askActions.hidden = !waiting;
    const atCap = state.reason === "dailyCap";
    allowWorkbook.hidden = atCap;
    capSettings.hidden = !atCap;
    decidedActions.hidden = waiting || state.decision === "ask";
    text.textContent = waiting ? question(state) : decidedText(state);
  });
  const rejudged = deps.rejudged$?.subscribe((addresses) => {
    if (addresses.length > 0) void rerun(() => Promise.resolve(addresses));
  });
  return () => {
    subscription.unsubscribe();
    rejudged?.unsubscribe();
  };
}

/**
 * "12 runs are waiting for your OK: summarize (10), translate (2). This workbook started 120 runs
 * in the last 10 minutes (it starts 100 without asking). …"
 */
function question(state: SpendingGuardState): string {
  const spells = state.spells.map(({ spellId, runs }) => `${spellId} (${runs})`).join(", ");
  const runs = state.waitingRuns === 1 ? "1 run is" : `${state.waitingRuns} runs are`;
  const why =
    state.reason === "dailyCap"
      ? `This workbook reached its daily cap of ${state.limits.dailyRunCap} runs.`
      : `This workbook started ${state.startedInWindow} ${state.startedInWindow === 1 ? "run" : "runs"} in the last ${state.limits.windowMs / 60_000} minutes (it starts ${state.limits.runsBeforeAsking} without asking).`;
  const decided =
    state.decision === "block"
      ? ""
      : state.reason === "dailyCap"
        ? " Allow these runs once, raise the daily cap in Settings, or block it."
        : " Allow these runs once, allow this workbook from now on (the daily cap still holds), or block it.";
  return `${runs} waiting for your OK: ${spells}. ${why}${decided}`;
}

function decidedText(state: SpendingGuardState): string {
  return state.decision === "block"
    ? "SPELL formulas of this workbook are blocked: they start no runs."
    : `SPELL formulas of this workbook run without asking, up to ${state.limits.dailyRunCap} runs a day (${state.startedToday} today).`;
}
