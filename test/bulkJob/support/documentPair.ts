import type { CheckpointRecord, CheckpointStore, FinishedJobRow, RowStatus } from "spellrun";
import { MockWorkbook } from "../../../playground/excel/mockWorkbook.js";
import {
  DocumentCheckpointStore,
  checkpointOf,
} from "../../../taskpane/storedJob/DocumentCheckpointStore.js";
import { OutputLayout } from "../../../taskpane/sheet/outputLayout.js";
import { loadBulkJobs } from "../../../taskpane/storedJob/jobStore.js";
import { type BulkJob } from "../../../taskpane/storedJob/BulkJob.js";
import { ROW_RECORD_SHEET, openRowRecords } from "../../../taskpane/storedJob/rowRecordStore.js";
import { SheetResultWriter } from "../../../taskpane/sheet/SheetResultWriter.js";
import { rowFingerprint } from "../../../taskpane/sheet/rowFingerprint.js";
import type { WriteTarget } from "../../../taskpane/sheet/WriteTarget.js";
import type { AdapterPair, JobPlace, SpecRow } from "./adapterPairs.js";

let uninstallCurrent: () => void = () => undefined;

/**
 * The task pane's pair on the mock workbook: `DocumentCheckpointStore` over the pane's stored
 * job (document settings and the record sheet) and `SheetResultWriter` over Sheet1 (inputs `id`,
 * `ms` in A:B, status in C, outputs from D), rows found by fingerprint. A kill is a reload of the
 * document with the settings and the record sheet as they were saved after the given record (the
 * results in Sheet1 stay, as Excel would keep them).
 */
export const DOCUMENT_PAIR: AdapterPair = {
  name: "document (mock workbook)",
  keepsKnownResults: true,
  newPlace(): JobPlace {
    let workbook: MockWorkbook | undefined;
    let rows: readonly SpecRow[] = [];
    let reopen = false;
    const saved: { type: string; settings: Record<string, unknown>; record: RecordCells }[] = [];
    const newJob = (): BulkJob => ({
      version: 1,
      id: "job-1",
      spellId: "sleep",
      sheet: "Sheet1",
      headerRow: 0,
      rows: rows.map((_, index) => index + 1),
      inputColumns: [0, 1],
      inputNames: ["id", "ms"],
      fingerprints: rows.map((row) => rowFingerprint([row.id, row.ms])),
      statusColumn: 2,
      outputNames: [],
      handled: [],
      startedAt: 0,
    });
    const storedJob = () => loadBulkJobs().find((job) => job.id === "job-1");
    /** The job as the document holds it (a resume), or a new one. */
    const store = () => {
      const stored = storedJob();
      return stored
        ? new DocumentCheckpointStore(stored, { stored: true })
        : new DocumentCheckpointStore(newJob());
    };
    const ensure = (withRows: readonly SpecRow[]) => {
      if (workbook) return;
      rows = withRows;
      workbook = new MockWorkbook({
        sheets: { Sheet1: [["id", "ms"], ...rows.map((row) => [row.id, row.ms])] },
        selection: `Sheet1!A1:B${rows.length + 1}`,
      });
      uninstallCurrent();
      uninstallCurrent = workbook.install();
    };
    const target = (): WriteTarget => ({
      sheet: "Sheet1",
      headerRow: 0,
      inputColumns: [0, 1],
      layout: new OutputLayout(2),
      headersWritten: 0,
      rows: rows.map((_, index) => index + 1),
      fingerprints: rows.map((row) => rowFingerprint([row.id, row.ms])),
    });
    /** The store, with the settings and record sheet saved by every record kept to cut back to. */
    const recording = (): CheckpointStore => {
      const inner = store();
      const after = async (type: string, work: void | Promise<void>) => {
        await work;
        saved.push({
          type,
          settings: structuredClone(workbook!.savedSettings),
          record: recordCells(workbook!),
        });
      };
      return {
        savesAllAtOnce: inner.savesAllAtOnce,
        load: () => inner.load(),
        recordIntent: (intent) => after("intent", inner.recordIntent(intent)),
        recordGroup: (window, groupId, token) =>
          after("group", inner.recordGroup(window, groupId, token)),
        recordRefused: (window) => after("refused", inner.recordRefused(window)),
        recordWritten: (mark) => after("written", inner.recordWritten(mark)),
        recordEnd: (outcome, count, lastMark) =>
          after("end", inner.recordEnd(outcome, count, lastMark)),
      };
    };
    return {
      open(withRows) {
        ensure(withRows);
        return { store: recording(), writer: new SheetResultWriter<SpecRow>(target()) };
      },
      seed(records: CheckpointRecord[], withRows) {
        ensure(withRows);
        const seeded = new DocumentCheckpointStore(newJob());
        return records.reduce<Promise<void>>(
          (previous, record) =>
            previous.then(() => {
              if (record.type === "intent") return seeded.recordIntent(record);
              if (record.type === "group") return seeded.recordGroup(record.window, record.groupId);
              return undefined;
            }),
          Promise.resolve()
        );
      },
      async load() {
        if (!workbook) return undefined;
        // A reopened document: the record sheet is read again.
        if (reopen) await openRowRecords();
        reopen = false;
        const stored = storedJob();
        return stored ? checkpointOf(stored) : undefined;
      },
      cutAfter(count) {
        const kept = count(saved);
        const settings = kept === 0 ? {} : saved[kept - 1].settings;
        workbook!.savedSettings = structuredClone(settings);
        restoreRecordCells(workbook!, kept === 0 ? new Map() : saved[kept - 1].record);
        workbook!.reload();
        reopen = true;
        saved.splice(kept);
      },
      rows: () => new Map(readRows(workbook!, rows).map((row) => [row.index, row])),
      writes: () => readRows(workbook!, rows),
    };
  },
};

function readRows(workbook: MockWorkbook, rows: readonly SpecRow[]): FinishedJobRow<SpecRow>[] {
  const grid = workbook.values("Sheet1", `A1:F${rows.length + 1}`);
  const header = grid[0].map(String);
  const slept = header.indexOf("slept");
  return grid.slice(1).flatMap((cells, index) => {
    const status = String(cells[2] ?? "");
    if (status === "") return [];
    const outputs: Record<string, unknown> =
      slept >= 0 && cells[slept] !== "" ? { slept: cells[slept] } : {};
    return [
      {
        index,
        row: { id: Number(cells[0]), ms: Number(cells[1]) },
        status: status.split(":")[0] as RowStatus,
        outputs,
      },
    ];
  });
}

/** The record sheet's cells by "row,column". */
type RecordCells = Map<string, unknown>;

function recordCells(workbook: MockWorkbook): RecordCells {
  const cells: RecordCells = new Map();
  workbook.forEachCell((sheet, row, column, cell) => {
    if (sheet === ROW_RECORD_SHEET && cell.value !== "") cells.set(`${row},${column}`, cell.value);
  });
  return cells;
}

/** Puts the record sheet back as it was (what a kill leaves: the last saved workbook). */
function restoreRecordCells(workbook: MockWorkbook, cells: RecordCells): void {
  const left = new Map(cells);
  workbook.forEachCell((sheet, row, column, cell) => {
    if (sheet !== ROW_RECORD_SHEET) return;
    const key = `${row},${column}`;
    cell.value = (left.get(key) ?? "") as typeof cell.value;
    left.delete(key);
  });
  if (left.size > 0) throw new Error("The record sheet lost cells it held: cannot cut back");
}
