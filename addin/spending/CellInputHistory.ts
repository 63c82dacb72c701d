import {
  forgetCellStart,
  judgeCellInputs,
  recordCellStart,
  withinWindow,
  type CellStarts,
  type ChangingInputsLimits,
} from "../changingInputsPolicy.js";

/**
 * What `CellInputHistory` stores with the guard's record (never in the workbook): the cells'
 * starts within the window and the cells the user allowed to change their inputs.
 *
 * ## Example
 * ```ts
 * const stored: StoredCellInputs = { cells: { "Sheet1!B2": [{ at: 1, input: 42 }] }, allowedCells: [] };
 * ```
 */
export interface StoredCellInputs {
  /** Each cell's starts within the window, by address. */
  cells: Record<string, CellStarts>;
  /** The cells allowed to start runs whatever their inputs ("Allow these cells"). */
  allowedCells: string[];
  /** The cells blocked by a question about them only ("Block"), until "Ask again". */
  blockedCells?: string[];
}

/**
 * At most this many cells are stored: those with the most starts in the window first (the
 * cells the rule is about), then the newest. A filled-down column of thousands of first starts,
 * which the workbook's threshold judges, does not fill the add-in's storage.
 */
const MAX_STORED_CELLS = 1_000;

/**
 * The per-cell rule's memory for one document: each `SPELL.RUN` cell's starts with their inputs'
 * fingerprints, and the cells allowed to change their inputs freely. `judgeCellInputs` of the
 * core decides; `SpendingGuard` asks it before the workbook's limits.
 *
 * ## Example
 * ```ts
 * const history = new CellInputHistory(stored, DEFAULT_CHANGING_INPUTS_LIMITS);
 * if (history.judge("Sheet1!B2", input, now) === "start") history.started("Sheet1!B2", input, now);
 * ```
 */
export class CellInputHistory {
  private readonly starts = new Map<string, CellStarts>();
  private readonly allowedCells: Set<string>;
  private readonly blockedCells: Set<string>;

  /**
   * @param stored What was stored (`undefined`: nothing).
   * @param limits The rule's limits.
   */
  constructor(
    stored: StoredCellInputs | undefined,
    private readonly limits: ChangingInputsLimits
  ) {
    for (const [address, starts] of Object.entries(stored?.cells ?? {})) {
      this.starts.set(address, starts);
    }
    this.allowedCells = new Set(stored?.allowedCells ?? []);
    this.blockedCells = new Set(stored?.blockedCells ?? []);
  }

  /**
   * The rule's verdict for a run of `input` the cell at `address` would start now.
   * @param address The cell.
   * @param input The fingerprint of the run's inputs.
   * @param now The current time.
   * @return `start`, or `wait` for the user's answer.
   */
  judge(address: string, input: number, now: number): "start" | "wait" {
    if (this.allowedCells.has(address)) return "start";
    return judgeCellInputs(this.starts.get(address) ?? [], input, now, this.limits);
  }

  /**
   * Records a run the cell started.
   * @param address The cell.
   * @param input The fingerprint of the run's inputs.
   * @param now The current time.
   */
  started(address: string, input: number, now: number): void {
    const before = this.starts.get(address) ?? [];
    this.starts.set(address, recordCellStart(before, input, now, this.limits));
  }

  /**
   * Forgets a start the service surely refused: it started nothing.
   * @param address The cell.
   * @param input The fingerprint of the refused run's inputs.
   */
  refund(address: string, input: number): void {
    const before = this.starts.get(address);
    if (before) this.starts.set(address, forgetCellStart(before, input));
  }

  /**
   * How many different inputs the cell started runs for within the window (the message names it).
   * @param address The cell.
   * @param now The current time.
   */
  inputsInWindow(address: string, now: number): number {
    return withinWindow(this.starts.get(address) ?? [], now, this.limits).length;
  }

  /**
   * Lets these cells start runs whatever their inputs, from now on ("Allow these cells").
   * @param addresses The cells.
   */
  allow(addresses: Iterable<string>): void {
    for (const address of addresses) this.allowedCells.add(address);
  }

  /** Asks again about every cell (Block of the workbook, Ask again). */
  forgetAllowed(): void {
    this.allowedCells.clear();
  }

  /**
   * Blocks these cells until "Ask again" ("Block" on a question about them only): they start no
   * run whatever their inputs, and are no longer allowed.
   * @param addresses The cells.
   */
  block(addresses: Iterable<string>): void {
    for (const address of addresses) {
      this.blockedCells.add(address);
      this.allowedCells.delete(address);
    }
  }

  /**
   * Whether the cell was blocked by a question about it ("Block").
   * @param address The cell.
   */
  isBlocked(address: string): boolean {
    return this.blockedCells.size > 0 && this.blockedCells.has(address);
  }

  /**
   * Ends the cells' block ("Ask again"): they ask again at their next new input.
   * @return The cells that were blocked, sorted (to recalculate them).
   */
  forgetBlocked(): string[] {
    const addresses = this.blocked();
    this.blockedCells.clear();
    return addresses;
  }

  /** The cells blocked by a question about them only, sorted. */
  blocked(): string[] {
    return [...this.blockedCells].sort();
  }

  /** The cells allowed to change their inputs, sorted. */
  allowed(): string[] {
    return [...this.allowedCells].sort();
  }

  /**
   * What to store now: the starts still in the window (at most `MAX_STORED_CELLS` cells), the
   * allowed cells and the blocked ones.
   * @param now The current time.
   */
  toStored(now: number): StoredCellInputs {
    const cells: [string, CellStarts][] = [];
    for (const [address, starts] of this.starts) {
      const recent = withinWindow(starts, now, this.limits);
      if (recent.length > 0) cells.push([address, recent]);
      else this.starts.delete(address);
    }
    if (cells.length > MAX_STORED_CELLS) {
      const latest = (starts: CellStarts) => starts.at(-1)?.at ?? 0;
      cells.sort(([, a], [, b]) => b.length - a.length || latest(b) - latest(a));
      cells.length = MAX_STORED_CELLS;
    }
    return {
      cells: Object.fromEntries(cells),
      allowedCells: this.allowed(),
      blockedCells: this.blocked(),
    };
  }
}
