/** One run (or bulk) waiting for the user's decision. */
interface WaitingRun {
  spellId: string;
  runs: number;
  addresses: Set<string>;
  reinvokers: Set<() => void>;
  /** Held by the per-cell rule (too many different inputs in its window), not the workbook's limits. */
  changingInputs: boolean;
}

/**
 * The cells the spending guard holds back, for the task pane's question: the runs waiting for a
 * decision (by run key, with the cells asking and their calls), the runs the user allowed one by
 * one until they start, and the cells a block stopped. `SpendingGuard` decides; this keeps the
 * lists, so each waiting or blocked cell comes back exactly once.
 *
 * ## Example
 * ```ts
 * const cells = new WaitingCells();
 * cells.wait("key", "summarize", 1, "Sheet1!B2");
 * const addresses = cells.release(true); // ["Sheet1!B2"]; "key" may now start once
 * ```
 */
export class WaitingCells {
  /** Runs the user allowed one by one, by run key, until they start. */
  private readonly allowedOnce = new Set<string>();
  /**
   * Cells of the per-cell rule the user allowed one by one ("Allow these"), by address, until
   * they start: a cell reading NOW() has other inputs at its next calculation than those it
   * waited with, so the cell, not the run, may start once.
   */
  private readonly allowedOnceCells = new Set<string>();
  /** Runs waiting for a decision, by run key. */
  private readonly waiting = new Map<string, WaitingRun>();
  /**
   * The run key each waiting cell waits with: a cell waits for one run, so a cell calculated
   * again with other inputs (a `NOW()` among them) replaces its earlier waiting run rather than
   * adding one more to the question.
   */
  private readonly keyOfCell = new Map<string, string>();
  /**
   * The cells a block stopped (their addresses): "Ask again" and "Allow this workbook" recalculate
   * them, so that they ask again or run instead of staying blocked with the question gone. Their
   * calls are not kept: a blocked `SPELL.RUN` has ended in its error, and calling it again would
   * pay for a run no cell shows.
   */
  private readonly blocked = new Set<string>();
  /**
   * The calls of the cells the user last decided about, to call again where the host cannot
   * recalculate a cell (see `reinvokeDecided`).
   */
  private decided: (() => void)[] = [];

  /** How many runs (or bulks) wait. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Whether the user allowed this run one by one ("Allow these").
   * @param key The run's key.
   */
  allowed(key: string): boolean {
    return this.allowedOnce.has(key);
  }

  /**
   * Whether the user allowed this cell's next run one by one ("Allow these" on a question about
   * cells whose inputs kept changing), whatever its inputs.
   * @param address The cell.
   */
  cellAllowed(address: string): boolean {
    return this.allowedOnceCells.size > 0 && this.allowedOnceCells.has(address);
  }

  /**
   * The run started: it neither waits nor stays allowed, and the cell that started it no longer
   * waits with another run (its inputs changed since) nor is allowed once more.
   * @param key The run's key.
   * @param address The cell that started it, when known.
   */
  started(key: string, address?: string): void {
    this.allowedOnce.delete(key);
    if (address) {
      this.allowedOnceCells.delete(address);
      this.leave(address);
    }
    const entry = this.waiting.get(key);
    if (entry) for (const cell of entry.addresses) this.keyOfCell.delete(cell);
    this.waiting.delete(key);
  }

  /**
   * Records a cell waiting for a decision.
   * @param key The run's key.
   * @param spellId The spell (the question names it).
   * @param runs The runs it would start.
   * @param address The cell asking, when known.
   * @param reinvoke Calls the cell's function again (where the host cannot recalculate it).
   * @param changingInputs Held by the per-cell rule rather than the workbook's limits.
   */
  wait(
    key: string,
    spellId: string,
    runs: number,
    address?: string,
    reinvoke?: () => void,
    changingInputs = false
  ): void {
    const entry = this.waiting.get(key) ?? {
      spellId,
      runs,
      addresses: new Set<string>(),
      reinvokers: new Set<() => void>(),
      changingInputs,
    };
    entry.runs = runs;
    entry.changingInputs = changingInputs;
    if (address) this.moveCell(address, key, entry);
    if (reinvoke) entry.reinvokers.add(reinvoke);
    this.waiting.set(key, entry);
  }

  /**
   * Adds a cell to a run that waits already (a cell sharing its run); nothing when none waits.
   * @param key The run's key.
   * @param address The cell.
   * @param reinvoke Calls the cell's function again, kept once per cell.
   */
  join(key: string, address: string, reinvoke?: () => void): void {
    const entry = this.waiting.get(key);
    if (!entry || entry.addresses.has(address)) return;
    this.moveCell(address, key, entry);
    if (reinvoke) entry.reinvokers.add(reinvoke);
  }

  /** The cell now waits with `key`: it leaves the run it waited with before. */
  private moveCell(address: string, key: string, entry: WaitingRun): void {
    if (this.keyOfCell.get(address) !== key) this.leave(address);
    entry.addresses.add(address);
    this.keyOfCell.set(address, key);
  }

  /**
   * The cell was answered without a run (a remembered result, a run another cell started): it
   * waits no more, and a run allowed for it once is spent (the answer was for the run it waited
   * with).
   * @param address The cell.
   * @return Whether it waited.
   */
  answeredWithoutRun(address: string): boolean {
    this.allowedOnceCells.delete(address);
    return this.leave(address);
  }

  /** The cell waits no more: it leaves its waiting run, which goes when no cell is left. */
  private leave(address: string): boolean {
    const key = this.keyOfCell.get(address);
    if (key === undefined) return false;
    this.keyOfCell.delete(address);
    const entry = this.waiting.get(key);
    entry?.addresses.delete(address);
    if (entry?.addresses.size === 0) this.waiting.delete(key);
    return true;
  }

  /**
   * Records a cell a block stopped.
   * @param address The cell.
   */
  block(address: string): void {
    this.blocked.add(address);
  }

  /**
   * The cell asks again: it is no longer counted as blocked.
   * @param address The cell.
   */
  unblock(address: string): void {
    this.blocked.delete(address);
  }

  /**
   * Forgets the waiting cells and keeps their calls for `reinvokeDecided`; with `allowOnce` their
   * runs may start once each (a cell of the per-cell rule its next run, whatever its inputs).
   * @param allowOnce "Allow these".
   * @param onlyChangingInputs Only the runs the per-cell rule holds ("Allow these cells").
   * @return Their addresses (each once).
   */
  release(allowOnce: boolean, onlyChangingInputs = false): string[] {
    const addresses = new Set<string>();
    this.decided = [];
    for (const [key, entry] of this.waiting) {
      if (onlyChangingInputs && !entry.changingInputs) continue;
      if (allowOnce && !entry.changingInputs) this.allowedOnce.add(key);
      for (const address of entry.addresses) {
        if (allowOnce && entry.changingInputs) this.allowedOnceCells.add(address);
        addresses.add(address);
        this.keyOfCell.delete(address);
      }
      this.decided.push(...entry.reinvokers);
      this.waiting.delete(key);
    }
    return [...addresses];
  }

  /**
   * The blocked cells, forgotten as blocked: a block ended and they get their turn.
   * @return Their addresses.
   */
  takeBlocked(): string[] {
    const addresses = [...this.blocked];
    this.blocked.clear();
    return addresses;
  }

  /** A block: nothing allowed one by one stays allowed. */
  forgetAllowed(): void {
    this.allowedOnce.clear();
    this.allowedOnceCells.clear();
  }

  /**
   * Calls again the functions of the cells the last `release` answered, each once.
   * @return How many calls were made again.
   */
  reinvokeDecided(): number {
    const calls = this.decided;
    this.decided = [];
    for (const call of calls) call();
    return calls.length;
  }

  /**
   * What the question counts: the waiting runs and, per spell, how many (most first), and the
   * cells the per-cell rule holds.
   * @return The runs waiting, the spells they belong to, and the cells (and their runs) whose
   *   inputs keep changing.
   */
  summary(): {
    waitingRuns: number;
    spells: { spellId: string; runs: number }[];
    changingCells: string[];
    changingRuns: number;
  } {
    const perSpell = new Map<string, number>();
    const changingCells: string[] = [];
    let waitingRuns = 0;
    let changingRuns = 0;
    for (const { spellId, runs, changingInputs, addresses } of this.waiting.values()) {
      perSpell.set(spellId, (perSpell.get(spellId) ?? 0) + runs);
      waitingRuns += runs;
      if (changingInputs) {
        changingCells.push(...addresses);
        changingRuns += runs;
      }
    }
    const spells = [...perSpell]
      .map(([spellId, runs]) => ({ spellId, runs }))
      .sort((a, b) => b.runs - a.runs || a.spellId.localeCompare(b.spellId));
    return { waitingRuns, spells, changingCells: changingCells.sort(), changingRuns };
  }
}
