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
 * and Block; when cells wait because they got more different inputs than the per-cell rule starts
 * without asking, it names them and offers Allow these cells (Allow this workbook, which does not
 * lift that rule, only when other runs wait too). Block blocks those cells when the question is
 * about them only, the workbook when its limits are asked about too (the question says which).
 * Once the workbook is allowed or blocked, or cells are allowed or blocked, that decision and
 * "Ask again" (blocked cells their own, which leaves the allowed cells allowed), shown beside a
 * question that comes meanwhile. Hidden while there is nothing to say.
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
  const allowCells = button("allow-cells", "Allow these cells", "allowCells");
  const askActions = element(
    "div",
    { class: "actions" },
    button("allow-these", "Allow these", "allowThese", true),
    allowCells,
    allowWorkbook,
    capSettings,
    button("block-workbook", "Block", "block")
  );
  /** The decision in force, beside a question that comes meanwhile (its Ask again too). */
  const decidedNote = element("p", { id: "spending-decided" });
  const askAgain = button("ask-again", "Ask again", "ask");
  // The blocked cells' own Ask again: the allowed cells stay allowed.
  const unblockCells = button("unblock-cells", "Ask again about blocked cells", "unblockCells");
  const decidedActions = element("div", { class: "actions" }, askAgain, unblockCells);
  box.append(text, askActions, decidedNote, decidedActions, status);
  root.replaceChildren(box);

  const subscription = deps.state$.subscribe((state) => {
    const waiting = state.waitingRuns > 0;
    const decided =
      state.decision !== "ask" || state.allowedCells.length > 0 || state.blockedCells.length > 0;
    box.hidden = !waiting && !decided;
    askActions.hidden = !waiting;
    const atCap = state.reason === "dailyCap";
    // Allowing the workbook lifts its limits, not the per-cell rule: offered when runs wait for them.
    allowWorkbook.hidden = atCap || state.reason === "changingInputs";
    allowCells.hidden = state.changingCells.length === 0;
    capSettings.hidden = !atCap;
    decidedActions.hidden = !decided;
    askAgain.hidden = state.decision === "ask" && state.allowedCells.length === 0;
    unblockCells.hidden = state.blockedCells.length === 0;
    text.textContent = waiting ? question(state) : decidedText(state);
    const note = waiting && decided ? decidedText(state) : "";
    decidedNote.textContent = note;
    decidedNote.hidden = note === "";
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
    state.reason === "changingInputs"
      ? ""
      : state.reason === "dailyCap"
        ? ` This workbook reached its daily cap of ${state.limits.dailyRunCap} runs.`
        : ` This workbook started ${state.startedInWindow} ${state.startedInWindow === 1 ? "run" : "runs"} in the last ${state.limits.windowMs / 60_000} minutes (it starts ${state.limits.runsBeforeAsking} without asking).`;
  const changing = state.changingCells.length > 0 ? ` ${changingText(state)}` : "";
  const allowCells =
    state.changingCells.length > 0 ? ", allow these cells to run at each change" : "";
  // Block blocks the cells of the per-cell rule when they alone wait, else the whole workbook.
  const blockWorkbook =
    state.changingCells.length > 0
      ? "block this workbook (all its SPELL formulas, these cells too)"
      : "block it";
  const decided =
    state.decision === "block"
      ? ""
      : state.reason === "dailyCap"
        ? ` Allow these runs once${allowCells}, raise the daily cap in Settings, or ${blockWorkbook}.`
        : state.reason === "changingInputs"
          ? ` Allow these runs once${allowCells} (the workbook's limits still hold), or block ${state.changingCells.length === 1 ? "this cell" : "these cells"} (the rest of the workbook runs on).`
          : ` Allow these runs once${allowCells}, allow this workbook from now on (the daily cap still holds), or ${blockWorkbook}.`;
  return `${runs} waiting for your OK: ${spells}.${why}${changing}${decided}`;
}

/** "Sheet1!B2 got more than 3 different inputs …": the cells the per-cell rule holds. */
function changingText(state: SpendingGuardState): string {
  const { inputsBeforeAsking, windowMs } = state.changingInputsLimits;
  const cells = state.changingCells;
  return `${nameCells(cells)} got more than ${inputsBeforeAsking} different inputs in ${windowMs / 60_000} minutes, each a new paid run (typed, or a formula reading NOW() or RAND(), which changes at every calculation); ${inputsBeforeAsking} start without asking.`;
}

function decidedText(state: SpendingGuardState): string {
  const workbook =
    state.decision === "block"
      ? "SPELL formulas of this workbook are blocked: they start no runs."
      : state.decision === "allowWorkbook"
        ? `SPELL formulas of this workbook run without asking, up to ${state.limits.dailyRunCap} runs a day (${state.startedToday} today).`
        : "";
  const cells = state.allowedCells;
  const allowed =
    cells.length === 0 || state.decision === "block"
      ? ""
      : `${nameCells(cells)} ${cells.length === 1 ? "runs" : "run"} again whenever ${cells.length === 1 ? "its" : "their"} inputs change.`;
  const blockedCells = state.blockedCells;
  const blocked =
    blockedCells.length === 0
      ? ""
      : `${nameCells(blockedCells)} ${blockedCells.length === 1 ? "is" : "are"} blocked: ${blockedCells.length === 1 ? "it starts" : "they start"} no runs${state.decision === "block" ? "" : " (the rest of the workbook runs on)"}.`;
  return [workbook, allowed, blocked].filter(Boolean).join(" ");
}

/** "Sheet1!B2, Sheet1!B3, Sheet1!B4 and 2 more". */
function nameCells(cells: readonly string[]): string {
  return cells.length <= 3
    ? cells.join(", ")
    : `${cells.slice(0, 3).join(", ")} and ${cells.length - 3} more`;
}
