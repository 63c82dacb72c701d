import type { CheckpointRecord, CheckpointStore, FinishedJobRow, RowStatus } from "spellrun";
import { MockWorkbook } from "../../../playground/excel/mockWorkbook.js";
import { DocumentCheckpointStore } from "../../../taskpane/bulk/DocumentCheckpointStore.js";
import { OutputLayout } from "../../../taskpane/bulk/outputLayout.js";
import { SheetResultWriter } from "../../../taskpane/sheet/SheetResultWriter.js";
import { rowFingerprint } from "../../../taskpane/sheet/rowFingerprint.js";
import type { WriteTarget } from "../../../taskpane/sheet/WriteTarget.js";
import type { AdapterPair, JobPlace, SpecRow } from "./adapterPairs.js";

let uninstallCurrent: () => void = () => undefined;

/**
 * The task pane's pair on the mock workbook: `DocumentCheckpointStore` over the document's
 * settings and `SheetResultWriter` over Sheet1 (inputs `id`, `ms` in A:B, status in C, outputs
 * from D), rows found by fingerprint. A kill is a reload of the document with the settings as
 * they were saved after the given record (the sheet keeps what was written, as Excel would).
 */
export const DOCUMENT_PAIR: AdapterPair = {
  name: "document (mock workbook)",
  keepsKnownResults: true,
  newPlace(): JobPlace {
    let workbook: MockWorkbook | undefined;
    let rows: readonly SpecRow[] = [];
    const saved: { type: string; settings: Record<string, unknown> }[] = [];
    const store = () => new DocumentCheckpointStore("job-1");
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
    /** The store, with every record's saved settings kept to cut back to. */
    const recording = (): CheckpointStore => {
      const inner = store();
      const after = async (type: string, work: Promise<void>) => {
        await work;
        saved.push({ type, settings: structuredClone(workbook!.savedSettings) });
      };
      return {
        load: () => inner.load(),
        recordIntent: (intent) => after("intent", inner.recordIntent(intent)),
        recordGroup: (window, groupId) => after("group", inner.recordGroup(window, groupId)),
        recordRefused: (window) => after("refused", inner.recordRefused(window)),
        recordWritten: (mark) => after("written", inner.recordWritten(mark)),
        recordEnd: (outcome, count) => after("end", inner.recordEnd(outcome, count)),
      };
    };
    return {
      open(withRows) {
        ensure(withRows);
        return { store: recording(), writer: new SheetResultWriter<SpecRow>(target()) };
      },
      seed(records: CheckpointRecord[], withRows) {
        ensure(withRows);
        const seeded = store();
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
      load: () => Promise.resolve(workbook ? store().load() : undefined),
      cutAfter(count) {
        const kept = count(saved);
        const settings = kept === 0 ? {} : saved[kept - 1].settings;
        workbook!.savedSettings = structuredClone(settings);
        workbook!.reload();
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
