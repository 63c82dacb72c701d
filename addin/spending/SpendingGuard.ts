import { BehaviorSubject, defer, Observable, of, Subject, throwError } from "rxjs";
import {
  emptyLedger,
  judgeStart,
  recordStarts,
  startedInWindow,
  type SpendingDecision,
  type SpendingLedger,
  type SpendingLimits,
} from "../spendingPolicy.js";
import type { SpellSettings } from "../settings/SpellSettings.js";
import { DEFAULT_CHANGING_INPUTS_LIMITS } from "../changingInputsPolicy.js";
import { hashText } from "../hashText.js";
import { limitsOf } from "./limitsOf.js";
import { CellInputHistory } from "./CellInputHistory.js";
import {
  cellBlockedError,
  changingInputsError,
  paneCapError,
  refusalError,
} from "./refusalError.js";
import { refundStarts } from "./refundStarts.js";
import { writeStoredSpending, type StoredSpending } from "./storedSpending.js";
import { WaitingCells } from "./WaitingCells.js";
import type { SpendingChoice, SpendingGuardState } from "./spendingGuardState.js";
import type { SpendingGuardError } from "../SpendingGuardError.js";

/**
 * The spending guard of one document: runs started by `SPELL` formulas are counted; beyond the
 * threshold (Settings: runs before asking, in 10 minutes) or the daily cap a run is not started,
 * its cell shows why (`SpendingGuardError`) and the task pane asks the user. The rules are
 * `judgeStart` of the core; this class keeps the ledger, the waiting runs and the decision.
 *
 * Decisions, the day's count and the formulas' starts within the window are remembered in the
 * add-in's storage (never in the workbook), keyed by the document's own id (kept in its settings),
 * its address and the user (a hash of the API key): a reload does not give the threshold back, a
 * different file saved at the same address or a copy saved elsewhere is asked again, and a
 * co-author with another key is asked again. The id alone grants nothing: a workbook carrying an
 * allowed workbook's id still needs its address and the user's key. A document with neither an id
 * nor an address is remembered until the add-in closes.
 *
 * The pane's bulk runs count toward the daily cap only (a click on Run is a decision already);
 * the 10-minute threshold counts the formulas' runs, as docs/excel.md says.
 *
 * A `SPELL.RUN` cell is judged on its own too, before the workbook's limits (`judgeCellInputs`
 * of the core): a cell whose inputs changed at each calculation (`NOW()`, `RAND()` among them)
 * waits for the user's answer once it started runs for 3 different inputs in 10 minutes, even in
 * an allowed workbook; "Allow these" lets it start its next run whatever its inputs (once),
 * "Allow these cells" lets it change its inputs freely, and "Block" on a question about such
 * cells only blocks those cells (the rest of the workbook runs on) until "Ask again". Its starts,
 * the allowed and the blocked cells are stored with the ledger.
 *
 * ## Example
 * ```ts
 * const guard = await spendingGuard();
 * const refusal = guard.admit(spellId, key, 1, "Sheet1!B2"); // undefined: counted, may start
 * ```
 */
export class SpendingGuard {
  private ledger: SpendingLedger;
  private decision: SpendingDecision;
  private limits: SpendingLimits;
  /** The workbook's limit that made the latest run wait (the per-cell rule is told apart). */
  private reason: "threshold" | "dailyCap" | undefined;
  /** The cells waiting for a decision, allowed one by one, or blocked. */
  private readonly cells = new WaitingCells();
  /** The `SPELL.RUN` cells' starts by inputs, for the per-cell rule. */
  private readonly inputs: CellInputHistory;
  private readonly state = new BehaviorSubject<SpendingGuardState>(undefined as never);
  /** A new state for the formulas' starts is on its way (see `count`). */
  private publishing = false;
  private saving: Promise<void> | undefined;
  private readonly rejudged = new Subject<string[]>();

  /** The guard's state on every change, starting with the current one. */
  readonly state$: Observable<SpendingGuardState> = this.state.asObservable();

  /**
   * The addresses of the waiting cells whose limits changed (Settings saved while they waited):
   * the task pane recalculates them, as after an answer, so that they run under the new limits
   * or ask again with the question of the limit they now reach.
   */
  readonly rejudged$: Observable<string[]> = this.rejudged.asObservable();

  /**
   * @param storageKey Where this document's decision is stored; `undefined`: not stored.
   * @param stored What was stored for it.
   * @param settings The limits come from here.
   * @param now The clock (specs pass their own).
   */
  constructor(
    private readonly storageKey: string | undefined,
    stored: StoredSpending | undefined,
    settings: Pick<SpellSettings, "runsBeforeAsking" | "dailyRunCap">,
    private readonly now: () => number = Date.now
  ) {
    this.limits = limitsOf(settings);
    this.decision = stored?.decision ?? "ask";
    this.ledger = stored
      ? { recent: stored.recent, day: stored.day, startedToday: stored.startedToday }
      : emptyLedger(now());
    this.inputs = new CellInputHistory(stored?.cellInputs, DEFAULT_CHANGING_INPUTS_LIMITS);
    this.publish();
  }

  /**
   * Counts a bulk run the user started from the task pane against the daily cap (the threshold
   * is for formulas: a click on Run is a decision already).
   *
   * ## Example
   * ```ts
   * guard.chargeBulk(rows.length); // throws before anything is sent when over the cap
   * ```
   *
   * @param runs The bulk's rows that will start.
   * @throws SpendingGuardError (`dailyCap`) when the day's cap would be passed; nothing counted.
   */
  chargeBulk(runs: number): void {
    const now = this.now();
    const verdict = judgeStart(this.ledger, "allowWorkbook", this.limits, now, runs);
    if (verdict.verdict !== "start") {
      throw paneCapError(runs, this.limits, this.startedToday());
    }
    this.count(runs, now, "pane");
  }

  /**
   * The gate of a bulk the task pane starts (Run, Resume, Retry failed rows), for the engine's
   * `beforeStart`: asked with the runs really sent (after reuse), it counts them against the daily
   * cap only, or errors with `SpendingGuardError` before anything is sent.
   *
   * ## Example
   * ```ts
   * bulkOptions: { reuse: true, beforeStart: (runs) => guard.beforePaneStart(runs) }
   * ```
   *
   * @param runs The runs about to be sent.
   * @return A cold Observable: one value, or the error.
   */
  beforePaneStart(runs: number): Observable<void> {
    return defer(() => {
      try {
        this.chargeBulk(runs);
        return of(undefined);
      } catch (error) {
        return throwError(() => error);
      }
    });
  }

  /**
   * Gives back runs counted by a gate whose start the service surely refused (the core's rule:
   * `startRefused`), so the day's count and the formulas' window hold the runs really sent. The
   * ledger is stored as after a start; nothing is given back below zero or from an earlier day.
   *
   * ## Example
   * ```ts
   * if (startRefused(error)) guard.refund(runs, "pane");
   * ```
   *
   * @param runs The runs counted for the refused start.
   * @param by Who was charged: a formula's runs leave the 10-minute window too.
   * @param cell The `SPELL.RUN` cell and run key of the refused start: no change of its inputs.
   */
  refund(runs: number, by: "formulas" | "pane", cell?: { address: string; key: string }): void {
    if (cell) this.inputs.refund(cell.address, inputFingerprint(cell.key));
    const refunded = refundStarts(this.ledger, runs, by, emptyLedger(this.now()).day);
    if (refunded === this.ledger) return;
    this.ledger = refunded;
    this.saving ??= Promise.resolve().then(() => this.save());
    this.publish();
  }

  /**
   * Applies the user's answer and returns the addresses of the waiting cells, to recalculate
   * them: allowed runs then start (once each), blocked ones show that they are blocked. The
   * blocked cells are kept: "Ask again" and "Allow this workbook" return them too, so that they
   * ask again or run. "Allow these cells" answers only the cells whose inputs kept changing: they
   * start runs whatever their inputs from now on (the workbook's limits still hold); the others
   * keep waiting. "Allow these" lets each waiting cell of the per-cell rule start its next run
   * whatever its inputs (a cell reading NOW() has new ones at its next calculation), once.
   * "Block" on a question about such cells only blocks those cells (kept until "Ask again"), the
   * rest of the workbook and the allowed cells untouched; on a question about the workbook's
   * limits it blocks the workbook and takes every cell's permission back. "Ask again" takes back
   * the cells' permission and their block (returning the blocked cells, to ask again);
   * "unblockCells" ends the cells' block only.
   *
   * ## Example
   * ```ts
   * await recalculateCells(await guard.decide("allowWorkbook"));
   * ```
   *
   * @param choice The answer.
   * @return The waiting cells' addresses, and the blocked ones' after a block ends (each once).
   */
  async decide(choice: SpendingChoice): Promise<string[]> {
    if (choice === "allowCells") {
      const addresses = this.cells.release(false, true);
      this.inputs.allow(addresses);
      this.publish();
      await this.save();
      return addresses;
    }
    if (choice === "unblockCells") {
      // The blocked cells' own "Ask again": they ask again, the allowed cells stay allowed.
      const addresses = this.inputs.forgetBlocked();
      this.publish();
      await this.save();
      return addresses;
    }
    if (choice === "block" && this.onlyChangingInputsWait()) {
      const addresses = this.cells.release(false, true);
      this.inputs.block(addresses);
      this.publish();
      await this.save();
      return addresses;
    }
    const addresses = this.cells.release(choice === "allowThese");
    if (choice === "block") for (const address of addresses) this.cells.block(address);
    // Asking again, or allowing the workbook, gives the blocked cells their turn.
    else if (choice !== "allowThese") addresses.push(...this.cells.takeBlocked());
    this.reason = undefined;
    if (choice !== "allowThese") this.decision = choice;
    if (choice === "block") this.cells.forgetAllowed();
    if (choice === "block" || choice === "ask") this.inputs.forgetAllowed();
    if (choice === "ask") addresses.push(...this.inputs.forgetBlocked());
    this.publish();
    await this.save();
    return [...new Set(addresses)];
  }

  /**
   * Calls again the functions of the cells the last `decide` answered, from the add-in's own
   * queue: for a host that cannot recalculate a cell (`range.calculate`), so that allowed runs
   * start and blocked ones say so instead of staying `#N/A` with the question gone. Each call is
   * made once.
   *
   * ## Example
   * ```ts
   * if (!(await recalculateCells(addresses))) guard.reinvokeDecided();
   * ```
   *
   * @return How many calls were made again.
   */
  reinvokeDecided(): number {
    return this.cells.reinvokeDecided();
  }

  /**
   * Follows changed settings (threshold, daily cap). When the limits changed while cells wait
   * and the pane follows `rejudged$`, the waiting cells are released and their addresses emitted
   * there, for the pane to recalculate them: the question speaks of the limits in force.
   *
   * ## Example
   * ```ts
   * onSettingsChanged((settings) => guard.useLimits(settings));
   * ```
   *
   * @param settings The new settings.
   */
  useLimits(settings: Pick<SpellSettings, "runsBeforeAsking" | "dailyRunCap">): void {
    const limits = limitsOf(settings);
    const changed =
      limits.runsBeforeAsking !== this.limits.runsBeforeAsking ||
      limits.dailyRunCap !== this.limits.dailyRunCap;
    this.limits = limits;
    // Without a pane to recalculate them, released cells would lose their question: they wait.
    if (!changed || this.cells.size === 0 || !this.rejudged.observed) return this.publish();
    // The waiting cells are judged again under the new limits (recalculated by the pane): those
    // the new limits let through start, the others ask again with the limit they now reach.
    const addresses = this.cells.release(false);
    this.reason = undefined;
    this.publish();
    this.rejudged.next(addresses);
  }

  /**
   * Records one more cell refused with a run it shares (result reuse: the cells of one input
   * share one run, and its gate was asked once, for the first of them), so that the decision
   * gives every one of them back: waiting with the others of its run, or blocked.
   *
   * ## Example
   * ```ts
   * guard.noteSharingCell(error.reason, key, "Sheet1!B7", () => cell.runAgain());
   * ```
   *
   * @param reason The refusal the cell got.
   * @param key What identifies the run (`client.reuseKey`).
   * @param address The cell.
   * @param reinvoke Calls the cell's function again (where the host cannot recalculate it).
   */
  noteSharingCell(
    reason: SpendingGuardError["reason"],
    key: string,
    address: string,
    reinvoke?: () => void
  ): void {
    if (reason === "blocked") this.cells.block(address);
    else this.cells.join(key, address, reinvoke);
  }

  /**
   * Writes what is pending (specs, and before the pane reloads).
   *
   * ## Example
   * ```ts
   * await guard.flush();
   * ```
   */
  async flush(): Promise<void> {
    await this.saving;
  }

  /**
   * The judgement of one formula's start, at once (`spendingGate` makes it the run's `beforeStart`):
   * when the runs may start they are counted and nothing is returned; else the refusal, the cell
   * recorded as waiting. For the add-in's spending gate,
   * which a filled-down column asks thousands of times in one recalculation.
   *
   * ## Example
   * ```ts
   * const refusal = guard.admit(spellId, key, 1, "Sheet1!B2");
   * if (refusal) throw refusal;
   * ```
   *
   * @param spellId The spell (the pane names it).
   * @param key What identifies the run or the bulk.
   * @param runs The runs that would start.
   * @param address The cell asking (`invocation.address`), when Excel gives it.
   * @param reinvoke Calls the cell's function again (where the host cannot recalculate it).
   * @param judgeInputs A `SPELL.RUN` cell: the per-cell rule judges its changing inputs (with
   *   its address; a `SPELL.BULK` is not, its table grows row by row).
   * @return `undefined` when counted (it may start), else the `SpendingGuardError`.
   */
  admit(
    spellId: string,
    key: string,
    runs: number,
    address?: string,
    reinvoke?: () => void,
    judgeInputs = false
  ): SpendingGuardError | undefined {
    const now = this.now();
    if (address) this.cells.unblock(address);
    // A cell blocked by a question about it starts nothing, whatever its inputs.
    if (judgeInputs && address && this.inputs.isBlocked(address)) return cellBlockedError();
    const allowed = this.cells.allowed(key);
    const verdict = judgeStart(this.ledger, this.decision, this.limits, now, runs, allowed);
    const input = judgeInputs && address ? inputFingerprint(key) : undefined;
    // The per-cell rule comes after a block and a run allowed one by one, before the workbook's
    // limits: its question names the cell and the reason, the real fix being in the formula.
    if (
      address &&
      input !== undefined &&
      verdict.verdict !== "block" &&
      !allowed &&
      !this.cells.cellAllowed(address) &&
      this.inputs.judge(address, input, now) === "wait"
    ) {
      this.cells.wait(key, spellId, runs, address, reinvoke, true);
      this.publish();
      return changingInputsError(
        this.inputs.inputsInWindow(address, now),
        DEFAULT_CHANGING_INPUTS_LIMITS
      );
    }
    if (verdict.verdict === "start") {
      this.cells.started(key, address);
      if (address && input !== undefined) this.inputs.started(address, input, now);
      this.count(runs, now, "formulas");
      return undefined;
    }
    if (verdict.verdict === "wait") {
      this.cells.wait(key, spellId, runs, address, reinvoke);
      this.reason = verdict.reason;
      this.publish();
    } else if (address) this.cells.block(address);
    return refusalError(verdict, runs, this.limits, startedInWindow(this.ledger, now, this.limits));
  }

  /**
   * A cell was answered without a run (a remembered result, a run another cell started): it no
   * longer waits in the question, and an "Allow these" for it is spent.
   *
   * ## Example
   * ```ts
   * guard.answeredWithoutRun("Sheet1!B2");
   * ```
   *
   * @param address The cell.
   */
  answeredWithoutRun(address: string): void {
    if (this.cells.answeredWithoutRun(address)) this.publish();
  }

  /** Whether the runs waiting are all held by the per-cell rule (its question alone shows). */
  private onlyChangingInputsWait(): boolean {
    const { waitingRuns, changingRuns } = this.cells.summary();
    return changingRuns > 0 && waitingRuns === changingRuns;
  }

  /** Counts started runs: the formulas' in the window and the day, the pane's in the day only. */
  private count(runs: number, now: number, by: "formulas" | "pane"): void {
    const after = recordStarts(this.ledger, now, runs, this.limits);
    this.ledger =
      by === "formulas"
        ? after
        : { ...after, recent: recordStarts(this.ledger, now, 0, this.limits).recent };
    // Thousands of starts arrive together: one write for all of them.
    this.saving ??= Promise.resolve().then(() => this.save());
    if (by === "pane") {
      if (this.state.value.startedToday !== this.ledger.startedToday) this.publish();
    } else if (!this.publishing) {
      // A recalculation's thousands of starts: one new state for the pane once they are counted.
      this.publishing = true;
      queueMicrotask(() => {
        this.publishing = false;
        if (this.state.value.startedToday !== this.ledger.startedToday) this.publish();
      });
    }
  }

  private async save(): Promise<void> {
    this.saving = undefined;
    const now = this.now();
    await writeStoredSpending(this.storageKey, {
      decision: this.decision,
      day: this.ledger.day,
      startedToday: this.ledger.startedToday,
      recent: this.ledger.recent.filter((start) => start.at > now - this.limits.windowMs),
      cellInputs: this.inputs.toStored(now),
    });
  }

  /** Runs started today: a ledger of an earlier day counts nothing. */
  private startedToday(): number {
    return this.ledger.day === emptyLedger(this.now()).day ? this.ledger.startedToday : 0;
  }

  private publish(): void {
    const { changingRuns, ...waiting } = this.cells.summary();
    // The workbook's limit when runs wait for it; the per-cell rule when only its cells wait.
    const limitsWait = waiting.waitingRuns > changingRuns;
    this.state.next({
      decision: this.decision,
      ...waiting,
      reason: limitsWait ? this.reason : changingRuns > 0 ? "changingInputs" : undefined,
      allowedCells: this.inputs.allowed(),
      blockedCells: this.inputs.blocked(),
      changingInputsLimits: DEFAULT_CHANGING_INPUTS_LIMITS,
      limits: this.limits,
      startedToday: this.startedToday(),
      startedInWindow: startedInWindow(this.ledger, this.now(), this.limits),
    });
  }
}

/**
 * A run key's fingerprint for the per-cell rule: short, stored, compared, never read back. A
 * number (`toString(36)` of a 53-bit hash cost a filled-down column more than the rest of the
 * rule).
 */
function inputFingerprint(key: string): number {
  return hashText(key);
}
