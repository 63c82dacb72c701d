import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { FinishedJobRow, ResultWriter, RowStatus } from "spellrun";
import { Journal } from "../../../cli/job/Journal.js";
import { JournalCheckpointStore } from "../../../cli/job/JournalCheckpointStore.js";
import type { JobRecord, JournalRecord } from "../../../cli/job/JournalRecord.js";
import { OrderedOutputWriter } from "../../../cli/job/OrderedOutputWriter.js";
import type { JobRow } from "../../../cli/job/JobRow.js";
import { replayJournal } from "../../../cli/job/replayJournal.js";
import { OutputFile } from "../../../cli/table/OutputFile.js";
import type { AdapterPair, JobPlace, SpecRow } from "./adapterPairs.js";

/**
 * The command line's pair: `JournalCheckpointStore` over a journal file and `OrderedOutputWriter`
 * over a CSV output, in a temporary folder. Every `open` reopens both as `spellrun resume` does
 * (the output cut back to the journal's last written mark).
 */
export const JOURNAL_PAIR: AdapterPair = {
  name: "journal file",
  newPlace(): JobPlace {
    const dir = mkdtempSync(path.join(tmpdir(), "spellrun-engine-"));
    const output = path.join(dir, "out.csv");
    const journalPath = `${output}.journal`;
    const job: JobRecord = {
      type: "job",
      version: 1,
      spellId: "sleep",
      input: path.join(dir, "in.csv"),
      inputFormat: "csv",
      output,
      outputFormat: "csv",
      chunkSize: 5,
      mapping: { rename: {} },
      csvGuard: true,
      baseUrl: "http://127.0.0.1:1",
      pollBaseUrl: "http://127.0.0.1:1",
      authHeader: "authorization",
    };
    let open: { journal: Journal; file: OutputFile } | undefined;
    const close = () => {
      open?.journal.close();
      open?.file.close();
      open = undefined;
    };
    const records = (): JournalRecord[] =>
      existsSync(journalPath) ? Journal.read(journalPath).records : [];
    return {
      open() {
        close();
        const state = existsSync(journalPath) ? replayJournal(records()) : undefined;
        const journal = state
          ? Journal.open(journalPath).journal
          : Journal.create(journalPath, job);
        const file = state
          ? OutputFile.resume(output, state.writtenBytes)
          : OutputFile.create(output);
        open = { journal, file };
        const inner = new OrderedOutputWriter({
          job,
          output: file,
          journal,
          columns: () => ["id", "ms"],
          ...(state?.layout ? { layout: state.layout } : {}),
        });
        const writer: ResultWriter<SpecRow> = {
          write: (rows) => inner.write(rows.map((row) => ({ ...row, row: toJobRow(row.row) }))),
          flush: () => inner.flush(),
          end: () => inner.end(),
        };
        return { store: new JournalCheckpointStore(journal, file), writer };
      },
      seed(seeded) {
        close();
        writeFileSync(journalPath, [job, ...seeded].map((r) => `${JSON.stringify(r)}\n`).join(""));
        writeFileSync(output, "");
      },
      load: () => Promise.resolve(existsSync(journalPath) ? replayJournal(records()) : undefined),
      cutAfter(count) {
        close();
        const kept = records();
        // The job record is line 1; the count is over the engine's records after it.
        const lines = kept.slice(0, 1 + count(kept.slice(1)));
        writeFileSync(journalPath, lines.map((r) => `${JSON.stringify(r)}\n`).join(""));
      },
      rows: () => new Map(readRows(output).map((row) => [row.index, row])),
      writes: () => readRows(output),
    };
  },
};

function toJobRow(row: SpecRow): JobRow {
  return { values: { id: row.id, ms: row.ms } };
}

function readRows(output: string): FinishedJobRow<SpecRow>[] {
  const records = parse(readFileSync(output, "utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  return records.map((record, index) => ({
    index,
    row: { id: Number(record.id), ms: Number(record.ms) },
    status: record.status as RowStatus,
    // A first window without a success has no `slept` column: the outputs are in other_outputs.
    outputs:
      record.slept !== undefined && record.slept !== ""
        ? { slept: Number(record.slept) }
        : record.other_outputs
          ? (JSON.parse(record.other_outputs) as Record<string, unknown>)
          : {},
  }));
}
