/**
 * The playground's recalculation: formulas of the workbook model evaluated by fast-formula-parser
 * (Excel's grammar: references, ranges, nesting, ~280 built-in functions), with the custom
 * functions of the runtime (`SPELL.*`) called as Excel calls them.
 *
 * As in Excel, a custom function's call belongs to its cell and is kept while its arguments stay
 * the same: the cell shows `#BUSY!` until the call's value arrives, then its formula is evaluated
 * again with that value; a changed argument cancels the call and makes a new one; a formula edited
 * or deleted cancels its calls. Only the formulas that read a changed cell are evaluated again.
 *
 * Why `parse` and not `parseAsync`: one parser evaluating several formulas at once with
 * `parseAsync` mixes their positions (the second formula's sheet and row leak into the first's
 * references), and a parser per formula costs ~12 ms to build. Evaluating synchronously and
 * re-evaluating when a call's value arrives is what Excel does with asynchronous functions anyway.
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { CellReference, FunctionArgument, RangeReference } from "fast-formula-parser";
import { Observable, Subject, type Subscription } from "rxjs";
import { blockAddress, columnName } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { MockCell, MockCellValue, MockWorkbook } from "../excel/mockWorkbook.js";
import {
  CustomFunctionError,
  type CustomFunctionsRuntime,
} from "../functions/customFunctionsRuntime.js";

/** A change the grid shows: a block of a sheet, or the whole sheet when no block is given. */
export interface DisplayChange {
  sheet: string;
  block?: CellBlock;
}

/** A call of a custom function made by one formula, at one place in it. */
interface CallSite {
  key: string;
  value: unknown;
  subscription?: Subscription;
}

/** What the engine keeps for one formula cell (keyed by the model's cell, which moves with it). */
interface FormulaState {
  formula: string;
  dependencies: { sheet: string; block: CellBlock }[];
  calls: CallSite[];
  /** The block the last value covered (the anchor alone, or a spill). */
  covered: CellBlock;
  /** The block a blocked spill wants (it shows #SPILL! until that block is clear). */
  wanted?: CellBlock;
}

interface Position {
  sheet: string;
  row: number;
  column: number;
}

const PENDING = Symbol("pending");
const BUSY = "#BUSY!";

/**
 * Recalculates the model's formulas as cells change.
 *
 * ## Example
 * ```ts
 * const engine = new FormulaEngine(workbook, runtime);
 * engine.start();
 * workbook.setValues("Sheet1", "B2", [['=SPELL.RUN("summarize", A2)']]);
 * engine.displayChanges.subscribe(({ sheet }) => grid.refresh(sheet));
 * ```
 */
export class FormulaEngine {
  private readonly states = new Map<MockCell, FormulaState>();
  private readonly changes = new Subject<DisplayChange>();
  private readonly parser: FormulaParser;
  /** The formula being evaluated (the parser is synchronous: one at a time). */
  private current: { position: Position; state: FormulaState; callIndex: number } | undefined;
  /** Cells whose calls produced a value since the last flush. */
  private readonly arrived = new Set<FormulaState>();
  private flushQueued = false;
  /** Why a formula shows an error ("Sheet1!B2" → the custom function's message), as Excel's tooltip. */
  private readonly messages = new Map<string, string>();
  /** True while the engine writes results, so that its own writes are not taken for edits. */
  private writing = false;

  /** What the grid must show again, after edits and after results. */
  readonly displayChanges: Observable<DisplayChange> = this.changes.asObservable();

  constructor(
    private readonly workbook: MockWorkbook,
    private readonly runtime: CustomFunctionsRuntime
  ) {
    this.parser = new FormulaParser({
      onCell: (reference) => this.readCell(reference),
      onRange: (reference) => this.readRange(reference),
      functions: Object.fromEntries(
        runtime.functionNames().map((name) => [name, (...args) => this.callFunction(name, args)])
      ),
    });
  }

  /** Listens to the model's changes; returns a function that stops listening and cancels every call. */
  start(): () => void {
    this.workbook.onCellsChanged = (change) => {
      if (this.writing) return;
      this.cellsChanged(change.sheet, change.block);
    };
    this.workbook.onRecalculate = ({ sheet, block }) => this.recalculateBlock(sheet, block);
    this.cellsChanged(undefined, undefined);
    return () => {
      this.workbook.onCellsChanged = undefined;
      this.workbook.onRecalculate = undefined;
      for (const state of this.states.values()) cancelCalls(state.calls, 0);
      this.states.clear();
    };
  }

  /**
   * Cells of `sheet` changed (`block` undefined: moved by a structural edit, or every sheet when
   * `sheet` is undefined too): formulas written there are evaluated afresh, formulas reading
   * them again.
   */
  private cellsChanged(sheet: string | undefined, block: CellBlock | undefined): void {
    const index = this.indexCells();
    this.dropRemovedFormulas(index.positions);
    const fresh: MockCell[] = [];
    const dependents: MockCell[] = [];
    for (const [cell, position] of index.positions) {
      if (cell.formula === undefined) continue;
      const state = this.states.get(cell);
      const written =
        sheet === undefined ||
        (position.sheet === sheet && (!block || contains(block, position.row, position.column)));
      if (!state || (written && block) || state.formula !== cell.formula) {
        if (state) cancelCalls(state.calls, 0);
        fresh.push(cell);
      } else if (
        sheet === undefined ||
        !block ||
        state.dependencies.some((dependency) => overlaps(dependency, sheet, block)) ||
        this.spillTouched(state, position, sheet, block)
      ) {
        dependents.push(cell);
      }
    }
    for (const cell of fresh) this.states.delete(cell);
    this.recalculate([...fresh, ...dependents], index.positions);
    this.changes.next({ sheet: sheet ?? "", block });
  }

  /**
   * Cells were written where a formula spills, or wants to spill: as in Excel, a spill never
   * writes over a cell of the user's ("#SPILL!" while anything is in the way) and spills again
   * once the way is clear. A cell typed inside a spill keeps what was typed; the spill's other
   * values go and the formula is evaluated again (to #SPILL!).
   */
  private spillTouched(
    state: FormulaState,
    position: Position,
    sheet: string,
    block: CellBlock
  ): boolean {
    if (position.sheet !== sheet) return false;
    const anchor = { top: position.row, left: position.column, rowCount: 1, columnCount: 1 };
    const covered = state.covered;
    const intoSpill =
      covered.rowCount * covered.columnCount > 1 &&
      overlaps({ sheet, block: covered }, sheet, block) &&
      !(block.rowCount === 1 && block.columnCount === 1 && contains(anchor, block.top, block.left));
    const intoWanted =
      state.wanted !== undefined && overlaps({ sheet, block: state.wanted }, sheet, block);
    if (intoSpill) {
      this.writing = true;
      try {
        for (let r = 0; r < covered.rowCount; r++) {
          for (let c = 0; c < covered.columnCount; c++) {
            const row = covered.top + r;
            const column = covered.left + c;
            if ((r === 0 && c === 0) || contains(block, row, column)) continue;
            this.workbook.setValues(sheet, `${columnName(column)}${row + 1}`, [[""]]);
          }
        }
      } finally {
        this.writing = false;
      }
      state.covered = anchor;
      this.changes.next({ sheet, block: covered });
    }
    return intoSpill || intoWanted;
  }

  /**
   * `Range.calculate()` of the add-in: the formulas in the block are calculated again, their
   * custom functions called anew (the task pane's "Allow" re-runs the cells that waited).
   */
  private recalculateBlock(sheet: string, block: CellBlock): void {
    const { positions } = this.indexCells();
    const cells: MockCell[] = [];
    for (const [cell, position] of positions) {
      if (cell.formula === undefined || position.sheet !== sheet) continue;
      if (!contains(block, position.row, position.column)) continue;
      const state = this.states.get(cell);
      if (state) {
        cancelCalls(state.calls, 0);
        state.calls = [];
      }
      cells.push(cell);
    }
    this.recalculate(cells, positions);
  }

  /** Evaluates `cells`, then every formula that reads what they show, once each. */
  private recalculate(cells: MockCell[], positions: Map<MockCell, Position>): void {
    const done = new Set<MockCell>();
    const queue = [...cells];
    while (queue.length > 0) {
      const cell = queue.shift() as MockCell;
      if (done.has(cell)) continue;
      done.add(cell);
      const position = positions.get(cell);
      if (!position || cell.formula === undefined) continue;
      const covered = this.evaluate(cell, position);
      for (const [other, state] of this.states) {
        if (
          !done.has(other) &&
          state.dependencies.some((d) => overlaps(d, position.sheet, covered))
        ) {
          queue.push(other);
        }
      }
    }
  }

  /** Evaluates one formula and writes what it shows; returns the block it covers now. */
  private evaluate(cell: MockCell, position: Position): CellBlock {
    const formula = cell.formula as string;
    const anchor = { top: position.row, left: position.column, rowCount: 1, columnCount: 1 };
    const state: FormulaState = this.states.get(cell) ?? {
      formula,
      dependencies: [],
      calls: [],
      covered: anchor,
    };
    this.states.set(cell, state);
    state.formula = formula;
    state.dependencies = [];
    this.current = { position, state, callIndex: 0 };
    let result: unknown;
    let parseProblem: string | undefined;
    try {
      result = this.parser.parse(
        formula.replace(/^=/, ""),
        { sheet: position.sheet, row: position.row + 1, col: position.column + 1 },
        true
      );
    } catch (error) {
      // The parser throws for what Excel would not take: an unknown function (#NAME?), a syntax error.
      const message = error instanceof Error ? error.message : String(error);
      const unknown = /not implemented/i.test(message);
      result = new FormulaError(unknown ? "#NAME?" : "#VALUE!");
      parseProblem = unknown
        ? `A function of this formula is not known here: ${firstLine(message)}`
        : `There's a problem with this formula: ${firstLine(message)}`;
    } finally {
      cancelCalls(state.calls, this.current.callIndex);
      this.current = undefined;
    }
    const values = toGrid(result);
    const key = `${position.sheet}!${columnName(position.column)}${position.row + 1}`;
    const message = parseProblem ?? errorMessage(values[0][0], state.calls);
    if (message) this.messages.set(key, message);
    else this.messages.delete(key);
    const before = state.covered;
    const block = this.show(cell, position, state, values);
    if (state.wanted) {
      this.messages.set(
        key,
        "Spill range isn't blank: clear the cells in the way to see the results."
      );
    }
    // The spilled array as the function gave it (the parser keeps only the errors' codes).
    const spilled = state.calls
      .map((site) => site.value)
      .find((value) => Array.isArray(value) && value.length === state.covered.rowCount);
    this.keepSpillMessages(position.sheet, before, state.covered, spilled);
    return block;
  }

  /**
   * The messages of a spill's error cells ("Still running (3 of 36 rows finished).") under their
   * own addresses, as Excel shows each cell's own; those of cells the spill left are forgotten.
   */
  private keepSpillMessages(
    sheet: string,
    before: CellBlock,
    covered: CellBlock,
    result: unknown
  ): void {
    const keyOf = (row: number, column: number) => `${sheet}!${columnName(column)}${row + 1}`;
    for (let r = 0; r < before.rowCount; r++) {
      for (let c = 0; c < before.columnCount; c++) {
        if (r > 0 || c > 0) this.messages.delete(keyOf(before.top + r, before.left + c));
      }
    }
    if (!Array.isArray(result) || covered.rowCount * covered.columnCount === 1) return;
    (result as unknown[][]).forEach((line, r) => {
      if (!Array.isArray(line)) return;
      line.forEach((item, c) => {
        const message = isErrorLike(item) ? (item as { message?: unknown }).message : undefined;
        if ((r > 0 || c > 0) && typeof message === "string" && message !== "") {
          this.messages.set(keyOf(covered.top + r, covered.left + c), message);
        }
      });
    });
  }

  /**
   * Why the cell shows an error, when a custom function said why (Excel shows it when the
   * pointer rests on the cell's error sign).
   *
   * @param sheet The sheet.
   * @param address The cell, `B2`.
   */
  messageAt(sheet: string, address: string): string | undefined {
    return this.messages.get(`${sheet}!${address}`);
  }

  /** Writes a formula's value (spilled when it is an array), `#SPILL!` when cells are in the way. */
  private show(
    cell: MockCell,
    position: Position,
    state: FormulaState,
    values: MockCellValue[][]
  ): CellBlock {
    const { sheet, row, column } = position;
    const wanted = {
      top: row,
      left: column,
      rowCount: values.length,
      columnCount: values[0].length,
    };
    const blocked = values.some((line, r) =>
      line.some((_, c) => {
        if (r === 0 && c === 0) return false;
        if (contains(state.covered, row + r, column + c)) return false;
        const other = this.workbook.cell(sheet, `${columnName(column + c)}${row + r + 1}`);
        return other.value !== "" || other.formula !== undefined;
      })
    );
    const shown = blocked ? [["#SPILL!" as MockCellValue]] : values;
    state.wanted = blocked ? wanted : undefined;
    const covered = blocked ? { ...wanted, rowCount: 1, columnCount: 1 } : wanted;
    this.writing = true;
    try {
      // What the last value covered and this one does not is emptied, as Excel does.
      for (let r = 0; r < state.covered.rowCount; r++) {
        for (let c = 0; c < state.covered.columnCount; c++) {
          const at = { row: state.covered.top + r, column: state.covered.left + c };
          if ((r === 0 && c === 0) || contains(covered, at.row, at.column)) continue;
          this.workbook.setValues(sheet, `${columnName(at.column)}${at.row + 1}`, [[""]]);
        }
      }
      this.workbook.setSpill(
        sheet,
        `${columnName(column)}${row + 1}`,
        cell.formula as string,
        shown
      );
    } finally {
      this.writing = false;
    }
    const before = state.covered;
    state.covered = covered;
    this.changes.next({ sheet, block: union(before, covered) });
    return union(before, covered);
  }

  /** A custom function called by the formula being evaluated: its call site's value so far. */
  private callFunction(name: string, args: FunctionArgument[]): unknown {
    const current = this.current;
    if (!current) return new FormulaError("#VALUE!");
    const values = args.map((arg) => (arg.omitted ? undefined : toFunctionArgument(arg.value)));
    const key = JSON.stringify([name, values]);
    const index = current.callIndex++;
    let site = current.state.calls[index];
    if (!site || site.key !== key) {
      site?.subscription?.unsubscribe();
      const fresh: CallSite = { key, value: PENDING };
      site = fresh;
      current.state.calls[index] = fresh;
      const { sheet, row, column } = current.position;
      const state = current.state;
      let subscribing = true;
      fresh.subscription = this.runtime
        .call(name, values, `${quoteSheet(sheet)}!${columnName(column)}${row + 1}`)
        .subscribe((value) => {
          fresh.value = value;
          // A value given during the call itself is used by this evaluation, right below.
          if (!subscribing) this.valueArrived(state);
        });
      subscribing = false;
    }
    return toParser(site.value);
  }

  /** A call's value arrived: the cell is evaluated again soon, with others that arrived too. */
  private valueArrived(state: FormulaState): void {
    this.arrived.add(state);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const arrived = new Set(this.arrived);
      this.arrived.clear();
      const cells = [...this.states]
        .filter(([, state]) => arrived.has(state))
        .map(([cell]) => cell);
      this.recalculate(cells, this.indexCells().positions);
    });
  }

  private readCell(reference: CellReference): unknown {
    const sheet = reference.sheet ?? this.current?.position.sheet ?? "";
    const block = { top: reference.row - 1, left: reference.col - 1, rowCount: 1, columnCount: 1 };
    this.current?.state.dependencies.push({ sheet, block });
    return fromModel(this.workbook.values(sheet, blockAddress(block))[0][0]);
  }

  private readRange(reference: RangeReference): unknown[][] {
    const sheet = reference.sheet ?? this.current?.position.sheet ?? "";
    // A whole column (A:A) reads to the last used row, not to row 1,048,576.
    const lastRow = Math.min(reference.to.row, this.workbook.lastRow(sheet) + 1);
    const block = {
      top: reference.from.row - 1,
      left: reference.from.col - 1,
      rowCount: Math.max(1, lastRow - reference.from.row + 1),
      columnCount: reference.to.col - reference.from.col + 1,
    };
    this.current?.state.dependencies.push({ sheet, block });
    return this.workbook.values(sheet, blockAddress(block)).map((row) => row.map(fromModel));
  }

  private indexCells(): { positions: Map<MockCell, Position> } {
    const positions = new Map<MockCell, Position>();
    this.workbook.forEachCell((sheet, row, column, cell) =>
      positions.set(cell, { sheet, row, column })
    );
    return { positions };
  }

  /**
   * Formulas that are gone (cell cleared or deleted): their calls are cancelled, and what they
   * spilled (which the model emptied) is shown again.
   */
  private dropRemovedFormulas(positions: Map<MockCell, Position>): void {
    for (const [cell, state] of this.states) {
      const position = positions.get(cell);
      if (position && cell.formula !== undefined) continue;
      cancelCalls(state.calls, 0);
      this.states.delete(cell);
      if (position) this.changes.next({ sheet: position.sheet, block: state.covered });
    }
  }
}

function cancelCalls(calls: CallSite[], from: number): void {
  for (const site of calls.splice(from)) site.subscription?.unsubscribe();
}

/** The message of the first call that ended in the error a formula shows. */
function firstLine(text: string): string {
  return text.split("\n")[0].slice(0, 200);
}

function errorMessage(shown: MockCellValue, calls: readonly CallSite[]): string | undefined {
  if (typeof shown !== "string" || !shown.startsWith("#")) return undefined;
  const failed = calls.find(
    (site) => site.value instanceof CustomFunctionError && site.value.code === shown
  );
  return failed ? (failed.value as CustomFunctionError).message : undefined;
}

/** What the parser reads for a cell: empty cells are `null` (0 in arithmetic, "" in text). */
function fromModel(value: MockCellValue): unknown {
  if (value === "") return null;
  if (typeof value === "string" && /^#(N\/A|VALUE!|REF!|DIV\/0!|NUM!|NAME\?|NULL!)$/.test(value)) {
    return new FormulaError(value);
  }
  return value;
}

/** What a custom function receives: empty cells as "", as Excel passes them. */
function toFunctionArgument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((row: unknown[]) => row.map(toFunctionArgument));
  if (value === null || value === undefined) return "";
  if (value instanceof FormulaError) return new CustomFunctionError(value.error);
  return value;
}

/** A call's value as the parser takes it. */
function toParser(value: unknown): unknown {
  if (value === PENDING) return new FormulaError(BUSY);
  if (value instanceof CustomFunctionError) return new FormulaError(value.code);
  if (isErrorLike(value)) return new FormulaError(value.code);
  if (Array.isArray(value)) {
    return value.map((row: unknown[]) =>
      row.map((item) => (isErrorLike(item) ? item.code : (item ?? "")))
    );
  }
  return value ?? "";
}

/** A formula's result as cells: an error's code, an array as it spills. */
function toGrid(result: unknown): MockCellValue[][] {
  const one = (value: unknown): MockCellValue => {
    if (value instanceof FormulaError) return value.error;
    if (isErrorLike(value)) return value.code;
    if (value === null || value === undefined) return 0;
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") {
      return value;
    }
    return String(value);
  };
  if (Array.isArray(result) && result.length > 0 && Array.isArray(result[0])) {
    const rows = result as unknown[][];
    const width = Math.max(1, ...rows.map((row) => row.length));
    return rows.map((row) =>
      Array.from({ length: width }, (_, c) => (c < row.length ? one(row[c]) : "#N/A"))
    );
  }
  return [[one(result)]];
}

function isErrorLike(value: unknown): value is { code: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "string" &&
    (value as { code: string }).code.startsWith("#")
  );
}

function contains(block: CellBlock, row: number, column: number): boolean {
  return (
    row >= block.top &&
    row < block.top + block.rowCount &&
    column >= block.left &&
    column < block.left + block.columnCount
  );
}

function overlaps(
  dependency: { sheet: string; block: CellBlock },
  sheet: string,
  block: CellBlock
): boolean {
  const a = dependency.block;
  return (
    dependency.sheet === sheet &&
    a.top < block.top + block.rowCount &&
    block.top < a.top + a.rowCount &&
    a.left < block.left + block.columnCount &&
    block.left < a.left + a.columnCount
  );
}

function union(a: CellBlock, b: CellBlock): CellBlock {
  const top = Math.min(a.top, b.top);
  const left = Math.min(a.left, b.left);
  return {
    top,
    left,
    rowCount: Math.max(a.top + a.rowCount, b.top + b.rowCount) - top,
    columnCount: Math.max(a.left + a.columnCount, b.left + b.columnCount) - left,
  };
}

function quoteSheet(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}
