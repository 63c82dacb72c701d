/**
 * The playground's recalculation: formulas of the workbook model evaluated by fast-formula-parser
 * (Excel's grammar: references, ranges, nesting, ~280 built-in functions), with the custom
 * functions of the runtime (`SPELL.*`) called as Excel calls them.
 *
 * As in Excel, a custom function's call belongs to its cell and is kept while its arguments stay
 * the same: the cell shows `#BUSY!` until the call's value arrives, then its formula is completed
 * with that value (evaluated again, its volatile functions keeping the values of the calculation
 * that made the call, so the call is kept) and its dependents are calculated; a changed argument cancels the call and makes a new one; a formula edited
 * or deleted cancels its calls. Only the formulas that read a changed cell are evaluated again.
 *
 * Why `parse` and not `parseAsync`: one parser evaluating several formulas at once with
 * `parseAsync` mixes their positions (the second formula's sheet and row leak into the first's
 * references), and a parser per formula costs ~12 ms to build. Evaluating synchronously and
 * re-evaluating when a call's value arrives is what Excel does with asynchronous functions anyway.
 */
import FormulaParser from "fast-formula-parser";
import type { CellReference, FunctionArgument, RangeReference } from "fast-formula-parser";
import { Observable, Subject } from "rxjs";
import { blockAddress } from "../excel/a1.js";
import type { CellBlock } from "../excel/a1.js";
import type { MockCell, MockCellValue, MockWorkbook } from "../excel/mockWorkbook.js";
import type { CustomFunctionsRuntime } from "../functions/customFunctionsRuntime.js";
import { contains, overlaps, union, within } from "./cellBlocks.js";
import { CellMessages } from "./cellMessages.js";
import { CustomFunctionCalls, type Evaluation } from "./customFunctionCalls.js";
import { formulaPositions, referencedBlock } from "./formulaState.js";
import type { FormulaState, Position } from "./formulaState.js";
import { readersByColumn } from "./readersByColumn.js";
import { ReleasedSpills } from "./releasedSpills.js";
import { emptySpilled, writeSpill } from "./writeSpill.js";
import { resolveSpillReferences, SpillReaders } from "./spillReferences.js";
import { addedFunctions, addedFunctionsNeedingContext } from "./addedFunctions.js";
import { useExcelValueRules } from "./excelValueRules.js";
import { parseFormula } from "./parseFormula.js";
import { cancelCalls, errorMessage, fromModel, toGrid } from "./formulaValues.js";
import { keepVolatileValues } from "./volatileValues.js";

/** How often one recalculation checks a blocked spill again (see `recalculate`). */
const MAX_RECHECKS = 3;

/** A change the grid shows: a block of a sheet, or the whole sheet when no block is given. */
export interface DisplayChange {
  sheet: string;
  block?: CellBlock;
}

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
  private current: Evaluation | undefined;
  /** The custom functions' calls of the formulas. */
  private readonly calls: CustomFunctionCalls;
  /** Why a formula shows an error, as Excel's tooltip. */
  private readonly messages = new CellMessages();
  /** True while the engine writes results, so that its own writes are not taken for edits. */
  private writing = false;
  /** Formulas entered so far (each formula's `entered` is its place in that count). */
  private entries = 0;
  /** Spill ranges given up since the formulas they blocked were last checked. */
  private readonly released = new ReleasedSpills(this.states);

  /** What the grid must show again, after edits and after results. */
  readonly displayChanges: Observable<DisplayChange> = this.changes.asObservable();

  constructor(
    private readonly workbook: MockWorkbook,
    runtime: CustomFunctionsRuntime
  ) {
    useExcelValueRules();
    this.calls = new CustomFunctionCalls(runtime, this.states, (cells) =>
      this.recalculate(cells, formulaPositions(this.workbook), new Set(cells))
    );
    this.parser = new FormulaParser({
      onCell: (reference) => this.read(reference)[0][0],
      onRange: (reference) => this.read(reference),
      functions: {
        ...addedFunctions,
        ...this.calls.functions(() => this.current),
      },
      functionsNeedContext: addedFunctionsNeedingContext,
    });
    // The parser keeps its functions (its own and those given) in one public map.
    const parserFunctions = (
      this.parser as unknown as {
        functions: Record<string, (...args: FunctionArgument[]) => unknown>;
      }
    ).functions;
    keepVolatileValues(parserFunctions, () => this.current);
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
    const index = { positions: formulaPositions(this.workbook) };
    this.dropRemovedFormulas(index.positions);
    const moved = sheet !== undefined && block === undefined;
    if (moved) this.cellsMoved(sheet, index.positions);
    const fresh: MockCell[] = [];
    const dependents: MockCell[] = [];
    for (const [cell, position] of index.positions) {
      if (cell.formula === undefined) continue;
      const state = this.states.get(cell);
      const written =
        sheet === undefined ||
        (position.sheet === sheet && (!block || contains(block, position.row, position.column)));
      // References adjusted by a structural edit leave the same formula, moved: its calls are
      // kept where their arguments are the same (nothing is run twice).
      const edited = state !== undefined && state.formula !== cell.formula && !moved;
      if (!state || (written && block) || edited) {
        if (state) {
          cancelCalls(state.calls, 0);
          // The model emptied what the formula spilled when its anchor was written.
          this.released.release(position.sheet, state.covered);
        }
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
    // The formulas written first; then the others in the order they were entered, with those a
    // released spill range blocked: of two wanting the same cells, the earlier takes them (see
    // `ReleasedSpills`), after a structural edit (every spill of the sheet computed again) too.
    const others = new Set([...dependents, ...this.released.takeBlocked(index.positions)]);
    const ordered = this.released.inOrderEntered(others);
    this.recalculate([...fresh, ...ordered], index.positions);
    this.changes.next({ sheet: sheet ?? "", block });
  }

  /**
   * Cells of `sheet` moved (an insert, a delete, a sort): the model emptied the sheet's spills,
   * so each formula there covers its anchor alone until it is evaluated (and spills) again.
   */
  private cellsMoved(sheet: string, positions: Map<MockCell, Position>): void {
    this.messages.forgetSheet(sheet);
    for (const [cell, state] of this.states) {
      const position = positions.get(cell);
      if (position?.sheet !== sheet) continue;
      state.covered = { top: position.row, left: position.column, rowCount: 1, columnCount: 1 };
      state.wanted = undefined;
    }
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
        emptySpilled(this.workbook, sheet, covered, block);
      } finally {
        this.writing = false;
      }
      state.covered = anchor;
      this.released.release(sheet, covered);
      this.changes.next({ sheet, block: covered });
    }
    return intoSpill || intoWanted;
  }

  /**
   * `Range.calculate()` of the add-in: the formulas in the block are calculated again, their
   * custom functions called anew (the task pane's "Allow" re-runs the cells that waited).
   */
  private recalculateBlock(sheet: string, block: CellBlock): void {
    const positions = formulaPositions(this.workbook);
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

  /**
   * Evaluates `cells`, then every formula that reads what they show, once each; and each time a
   * spill range is given up, the formulas it blocked (see `ReleasedSpills`), even those
   * evaluated before.
   *
   * @param resumed Those of `cells` completed by a custom function's value: their volatile
   *   functions keep the values of the calculation that made the call (their dependents and
   *   rechecks are calculated afresh).
   */
  private recalculate(
    cells: MockCell[],
    positions: Map<MockCell, Position>,
    resumed: ReadonlySet<MockCell> = new Set()
  ): void {
    const done = new Set<MockCell>();
    const rechecks = new Map<MockCell, number>();
    // A recheck: a formula done already, evaluated again because a spill it was blocked by was
    // given up ("blocked") or a spill it reads with `#` changed its size ("resized").
    type Recheck = "blocked" | "resized" | undefined;
    const queue = cells.map((cell) => ({ cell, recheck: undefined as Recheck }));
    const takeReleased = () =>
      this.released
        .takeBlocked(positions)
        .forEach((cell) => queue.push({ cell, recheck: "blocked" }));
    const spillReaders = new SpillReaders();
    takeReleased();
    // Which formulas read a column: looked up per evaluated cell rather than scanning every
    // formula (a paste of 100,000 formulas was quadratic). Only `evaluate` changes a formula's
    // dependencies, and an evaluated formula is done, so the index holds for those still to do.
    const readers = readersByColumn(this.states);
    for (let next = 0; next < queue.length; next++) {
      const { cell, recheck } = queue[next];
      if (recheck) {
        // Still blocked? A few checks at most: spills that keep taking each other's cells
        // (each sized by what the other shows) settle as #SPILL! rather than loop.
        const count = rechecks.get(cell) ?? 0;
        const due = recheck === "resized" || this.states.get(cell)?.wanted;
        if (!due || count >= MAX_RECHECKS) continue;
        rechecks.set(cell, count + 1);
      } else if (done.has(cell)) {
        continue;
      }
      done.add(cell);
      const position = positions.get(cell);
      if (!position || cell.formula === undefined) continue;
      const before = this.states.get(cell)?.covered;
      const covered = this.evaluate(cell, position, !recheck && resumed.has(cell));
      const evaluated = this.states.get(cell) as FormulaState;
      spillReaders.add(cell, evaluated);
      for (const reader of spillReaders.resized(position, before, evaluated.covered, done)) {
        queue.push({ cell: reader, recheck: "resized" });
      }
      for (const other of readers(position.sheet, covered)) {
        const state = this.states.get(other);
        if (
          state &&
          !done.has(other) &&
          state.dependencies.some((d) => overlaps(d, position.sheet, covered))
        ) {
          queue.push({ cell: other, recheck: undefined });
        }
      }
      takeReleased();
    }
    this.released.clear();
  }

  /**
   * Evaluates one formula and writes what it shows; returns the block it covers now.
   *
   * @param resumed Completed by a custom function's value: the volatile functions give what they
   *   gave in the formula's last calculation.
   */
  private evaluate(cell: MockCell, position: Position, resumed = false): CellBlock {
    const formula = cell.formula as string;
    const anchor = { top: position.row, left: position.column, rowCount: 1, columnCount: 1 };
    // A spill the workbook already shows (a document opened again) is the formula's own.
    const shown = this.workbook.spillAt(position.sheet, blockAddress(anchor));
    const state: FormulaState = this.states.get(cell) ?? {
      formula,
      dependencies: [],
      calls: [],
      covered: shown ?? anchor,
      entered: ++this.entries,
    };
    this.states.set(cell, state);
    state.formula = formula;
    const spills = resolveSpillReferences(this.workbook, formula, position.sheet);
    state.dependencies = [...spills.anchors];
    state.spillAnchors = spills.anchors.length > 0 ? spills.anchors : undefined;
    if (!resumed) state.volatiles = undefined;
    this.current = { position, state, callIndex: 0, volatileIndex: 0, resumed };
    const { result, problem } = parseFormula(
      this.parser,
      spills.formula,
      formula,
      position,
      spills.broken
    );
    cancelCalls(state.calls, this.current.callIndex);
    this.current = undefined;
    const values = toGrid(result);
    const { sheet, row, column } = position;
    this.messages.set(sheet, row, column, problem ?? errorMessage(values[0][0], state.calls));
    const before = state.covered;
    const block = this.show(cell, position, state, values);
    if (state.wanted) {
      const blocked = "Spill range isn't blank: clear the cells in the way to see the results.";
      this.messages.set(sheet, row, column, blocked);
    }
    // The spilled array as the function gave it (the parser keeps only the errors' codes).
    const spilled = state.calls
      .map((site) => site.value)
      .find((value) => Array.isArray(value) && value.length === state.covered.rowCount);
    this.messages.keepSpillMessages(position.sheet, before, state.covered, spilled);
    return block;
  }

  /**
   * Why the cell shows an error, when a custom function said why (Excel shows it when the
   * pointer rests on the cell's error sign).
   *
   * @param sheet The sheet.
   * @param address The cell, `B2`.
   */
  messageAt(sheet: string, address: string): string | undefined {
    return this.messages.at(sheet, address);
  }

  /** Writes a formula's value (spilled when it is an array), `#SPILL!` when cells are in the way. */
  private show(
    cell: MockCell,
    position: Position,
    state: FormulaState,
    values: MockCellValue[][]
  ): CellBlock {
    const { sheet, row, column } = position;
    const anchor = { top: row, left: column, rowCount: 1, columnCount: 1 };
    const before = state.covered;
    this.writing = true;
    try {
      const written = writeSpill(
        this.workbook,
        sheet,
        anchor,
        cell.formula as string,
        values,
        before
      );
      state.covered = written.covered;
      state.wanted = written.wanted;
    } finally {
      this.writing = false;
    }
    if (!within(before, state.covered)) this.released.release(sheet, before);
    this.changes.next({ sheet, block: union(before, state.covered) });
    return union(before, state.covered);
  }

  /** A reference's values as the parser reads them, noted as a dependency of the formula. */
  private read(reference: CellReference | RangeReference): unknown[][] {
    const sheet = this.current?.position.sheet;
    const read = referencedBlock(this.workbook, reference, sheet);
    this.current?.state.dependencies.push(referencedBlock(this.workbook, reference, sheet, true));
    const values = this.workbook.values(read.sheet, blockAddress(read.block));
    return values.map((row) => row.map(fromModel));
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
      if (!position) continue; // deleted with its row or column: the sheet is evaluated again
      this.released.release(position.sheet, state.covered);
      this.changes.next({ sheet: position.sheet, block: state.covered });
    }
  }
}
