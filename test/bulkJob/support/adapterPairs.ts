import {
  MemoryCheckpointStore,
  callbackResultWriter,
  type Checkpoint,
  type CheckpointRecord,
  type CheckpointStore,
  type FinishedJobRow,
  type ResultWriter,
} from "spellrun";

/** One row of the engine specs: its number and the `sleep` spell's inputs. */
export interface SpecRow {
  id: number;
  ms: number;
}

/**
 * A checkpoint store and a result writer of one medium, opened on a job's "place" (a memory
 * record list, a journal file…), so that a second job opened on the same place resumes the first.
 */
export interface AdapterPair {
  name: string;
  /** Whether the writer can write a known result handed to it (a retry's kept rows). */
  keepsKnownResults?: boolean;
  /** A fresh place for one job. */
  newPlace(): JobPlace;
}

/** The place of one job: reopened by every run of it, as a process would after a crash. */
export interface JobPlace {
  /** Opens the job's store and writer over `rows` (a sheet pair puts them in its sheet). */
  open(rows: readonly SpecRow[]): { store: CheckpointStore; writer: ResultWriter<SpecRow> };
  load(): Promise<Checkpoint | undefined>;
  /** Starts the place with these records (what an earlier process left) for `rows`. */
  seed(records: CheckpointRecord[], rows: readonly SpecRow[]): void | Promise<void>;
  /** Keeps the checkpoint as it was after its first `records` records (what a kill leaves). */
  cutAfter(count: (records: readonly { type: string }[]) => number): void;
  /** Every row written so far, by row number (the last write of a row wins). */
  rows(): Map<number, FinishedJobRow<SpecRow>>;
  /** Every write, in order (a row written twice shows twice). */
  writes(): FinishedJobRow<SpecRow>[];
}

/** The memory pair: `MemoryCheckpointStore` and `callbackResultWriter`. */
export const MEMORY_PAIR: AdapterPair = {
  name: "memory",
  keepsKnownResults: true,
  newPlace() {
    let store = new MemoryCheckpointStore();
    const writes: FinishedJobRow<SpecRow>[] = [];
    return {
      open: () => ({
        store,
        writer: callbackResultWriter<SpecRow>((row) => void writes.push(row)),
      }),
      seed(records) {
        store = new MemoryCheckpointStore([...records]);
      },
      load: () => Promise.resolve(store.load()),
      cutAfter(count) {
        store = new MemoryCheckpointStore(store.records.slice(0, count(store.records)));
        const kept = store.load()?.writtenRows ?? 0;
        // The rows after the last written mark are lost with the process.
        const index = writes.findIndex((row) => row.index >= kept);
        if (index >= 0) writes.splice(index);
      },
      rows: () => new Map(writes.map((row) => [row.index, row])),
      writes: () => [...writes],
    };
  },
};
