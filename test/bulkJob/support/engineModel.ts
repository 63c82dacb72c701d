import {
  BulkJobRunner,
  LeaseHeldError,
  MemoryCheckpointStore,
  RowsChangedError,
  type BulkJobResult,
  type Checkpoint,
  type FinishedJobRow,
  type JobOutcome,
  type RowSource,
} from "../../../src/index.js";
import { FakeBulkService, type FakeClient } from "./FakeBulkService.js";
import { Killed } from "./Killed.js";
import { ProcessStore } from "./ProcessStore.js";
import type { ModelRow, RowsGiven, Scenario, Session } from "./scenarios.js";

/** What one worker of a session did. */
interface WorkerRun {
  result?: BulkJobResult;
  thrown?: unknown;
  writes: FinishedJobRow<ModelRow>[];
  killed: boolean;
  given: RowsGiven;
  rowsGiven: readonly ModelRow[];
  writtenBefore: Set<number>;
}

const LEASE_MS = 60_000;

/**
 * Runs a scenario against a fresh fake service and checks the engine's promises after every
 * session: each row written once per session and never again once its mark is recorded, each
 * written row with its own outputs, no row started twice unless a session asked for it, the
 * outcome and the error agreeing, and at the end every row written.
 */
export async function checkScenario(scenario: Scenario): Promise<void> {
  const { rowCount, windowSize } = scenario;
  const rows: ModelRow[] = Array.from({ length: rowCount }, (_, id) => ({ id, text: `t${id}` }));
  let clock = 0;
  const base = new MemoryCheckpointStore([], () => clock);
  const service = new FakeBulkService();
  if (scenario.chunkSize !== undefined) service.chunkSize = scenario.chunkSize;
  const finalWrites = new Map<number, FinishedJobRow<ModelRow>>();
  let resent = false;
  // Rows of windows resumed with their intent and nothing after it (see checkUnknownRows).
  const unrecorded = new Set<number>();
  const sessions = [...scenario.sessions];
  // Then sessions without kills or faults until the job has ended.
  for (let extra = 0; extra < 4; extra++) {
    sessions.push({ faults: [], rows: "same", shift: 1, resend: false, twoWorkers: false });
  }
  let lastOutcome: JobOutcome | undefined;
  for (const [index, session] of sessions.entries()) {
    if (
      index >= scenario.sessions.length &&
      (lastOutcome === "complete" || lastOutcome === "incomplete")
    ) {
      break;
    }
    // A killed worker's lease is left behind: the next session comes after it expired.
    clock += LEASE_MS + 1;
    const resume = base.load();
    for (const [index, known] of resume?.windows ?? []) {
      if (known.groupId !== undefined || known.token !== undefined) continue;
      for (let row = index * windowSize; row < index * windowSize + known.count; row++) {
        unrecorded.add(row);
      }
    }
    service.faults.splice(0, service.faults.length, ...session.faults);
    resent ||= session.resend;
    const runs = await Promise.all(
      (session.twoWorkers ? [0, 1] : [0]).map((worker) =>
        runWorker(worker === 0 ? session : { ...session, kill: undefined }, {
          base,
          service,
          rows,
          windowSize,
          scenario,
          resume,
          owner: `s${index}w${worker}`,
        })
      )
    );
    const finished = runs.filter((run) => run.result !== undefined);
    if (session.twoWorkers) {
      const refused = runs.filter((run) => run.thrown instanceof LeaseHeldError);
      if (refused.length !== 1) {
        throw new Error(`two workers: ${refused.length} refused by the lease, expected 1`);
      }
      if (refused[0].writes.length > 0) throw new Error("the refused worker wrote rows");
    }
    for (const run of runs) {
      // What a killed worker does after its death reaches nothing (its last record throws).
      if (run.thrown !== undefined && !run.killed && !(run.thrown instanceof LeaseHeldError)) {
        throw run.thrown;
      }
      checkWrites(run, windowSize);
      if (run.result && !run.killed) {
        checkOutcome(run.result, run.rowsGiven === rows);
        if (
          (run.given === "edited" || run.given === "shifted") &&
          run.result.outcome !== "input-error"
        ) {
          throw new Error(`${run.given} rows were not refused: ${run.result.outcome}`);
        }
      }
      if (run.given === "edited" && run.writes.some((write) => write.row !== rows[write.index])) {
        throw new Error("the edited row was written");
      }
      for (const write of run.writes) finalWrites.set(write.index, write);
    }
    // An edited row is refused before it is sent (shifted rows would start rows again, which
    // checkStarts catches).
    for (const run of runs) {
      if (run.given !== "edited") continue;
      for (const row of run.rowsGiven) {
        if (row !== rows[row.id] && service.startsOf({ id: row.id, text: row.text }) > 0) {
          throw new Error(`the edited row ${row.id} was sent`);
        }
      }
    }
    const alive = finished.find((run) => !run.killed);
    lastOutcome = alive?.result?.outcome;
    checkStarts(service, rows, resent);
  }
  if (lastOutcome !== "complete" && lastOutcome !== "incomplete") {
    throw new Error(`the job did not end: ${String(lastOutcome)}`);
  }
  const end = base.load();
  const written = new Set([...Array(end?.writtenRows ?? 0).keys(), ...(end?.alsoWritten ?? [])]);
  if (written.size !== rowCount) {
    throw new Error(`the checkpoint says ${written.size} of ${rowCount} rows are written`);
  }
  for (let row = 0; row < rowCount; row++) {
    if (!finalWrites.has(row)) throw new Error(`row ${row} was never written`);
  }
  if (!resent) checkUnknownRows(service, finalWrites, unrecorded);
}

/**
 * A row ends `unknown` only when a bulkStart with it may have left (its chunk's intent hook was
 * called): the rows of a chunk that surely was not sent are sent on resume (and, by
 * `checkStarts`, once). The one exception: a window resumed with its intent and no record after
 * it, whose first chunk may have left; the engine cannot tell a bulk of one chunk (which records
 * no chunk intent) from one killed before its first chunk's intent, so all its rows are unknown.
 */
function checkUnknownRows(
  service: FakeBulkService,
  finalWrites: Map<number, FinishedJobRow<ModelRow>>,
  unrecorded: Set<number>
): void {
  for (const [index, write] of finalWrites) {
    if (write.status !== "unknown" || unrecorded.has(index)) continue;
    if (service.attemptsOf({ id: write.row.id, text: write.row.text }) === 0) {
      throw new Error(`row ${index} written unknown, but no bulkStart with it may have left`);
    }
  }
}

interface WorkerContext {
  base: MemoryCheckpointStore;
  service: FakeBulkService;
  rows: ModelRow[];
  windowSize: number;
  scenario: Scenario;
  resume: Checkpoint | undefined;
  owner: string;
}

async function runWorker(session: Session, context: WorkerContext): Promise<WorkerRun> {
  const { base, service, rows, windowSize, scenario, resume } = context;
  const client: FakeClient = service.client();
  const writes: FinishedJobRow<ModelRow>[] = [];
  let killed = false;
  let died: () => void = () => undefined;
  const death = new Promise<void>((resolve) => (died = resolve));
  const kill = () => {
    killed = true;
    store.dead = true;
    client.kill();
    died();
  };
  const store = new ProcessStore(
    base,
    session.kill?.at === "record" ? session.kill.n : undefined,
    kill
  );
  if (session.kill?.at === "start") client.killBeforeStart(session.kill.n, kill);
  const { given, rowsGiven } = rowsOfSession(session, rows, resume, windowSize);
  const source: RowSource<ModelRow> =
    given === "function"
      ? (fromRow) => {
          const marked = resume?.writtenRows ?? 0;
          if (fromRow > marked || fromRow % windowSize !== 0) {
            throw new Error(`asked for rows from ${fromRow} (written ${marked})`);
          }
          return rowsGiven.slice(fromRow);
        }
      : rowsGiven;
  const writtenBefore = new Set([
    ...Array(resume?.writtenRows ?? 0).keys(),
    ...(resume?.alsoWritten ?? []),
  ]);
  const run: WorkerRun = { writes, killed: false, given, rowsGiven, writtenBefore };
  const job = new BulkJobRunner<ModelRow>({
    client,
    spellId: "echo",
    rows: source,
    inputsOf: (row) => ({ id: row.id, text: row.text }),
    windowSize,
    maxWindows: scenario.maxWindows,
    writeOrder: scenario.writeOrder,
    store,
    writer: {
      write(batch) {
        if (killed) throw new Killed();
        writes.push(...batch);
      },
    },
    ...(resume ? { resume } : {}),
    resendMayHaveStarted: session.resend,
    writtenMarkEveryMs: 0,
    leaseOwner: context.owner,
    leaseMs: LEASE_MS,
  });
  // A killed worker is not waited for: what it does after its death reaches nothing.
  await Promise.race([
    job.run().then(
      (result) => void (run.result = result),
      (error: unknown) => void (run.thrown = error)
    ),
    death,
  ]);
  run.killed = killed;
  return run;
}

/**
 * The rows a session gives. Wrong rows only where the checkpoint can tell: an edited row inside a
 * window it recorded with a fingerprint; shifted rows when it recorded any window.
 */
function rowsOfSession(
  session: Session,
  rows: ModelRow[],
  resume: Checkpoint | undefined,
  windowSize: number
): { given: RowsGiven; rowsGiven: readonly ModelRow[] } {
  const known = [...(resume?.windows ?? new Map()), ...(resume?.refused ?? new Map())].filter(
    ([, window]) => window.fingerprint !== undefined
  );
  if (session.rows === "edited" && known.length > 0) {
    const [index] = known[session.shift % known.length];
    const edited = index * windowSize;
    return {
      given: "edited",
      rowsGiven: rows.map((row) => (row.id === edited ? { ...row, text: `${row.text}!` } : row)),
    };
  }
  if (session.rows === "shifted" && known.length > 0) {
    return { given: "shifted", rowsGiven: rows.slice(1 + (session.shift % rows.length)) };
  }
  return { given: session.rows === "function" ? "function" : "same", rowsGiven: rows };
}

/** Each row once in a session, never one marked written before it, each with its own outputs. */
function checkWrites(run: WorkerRun, windowSize: number): void {
  const seen = new Set<number>();
  for (const write of run.writes) {
    if (seen.has(write.index)) throw new Error(`row ${write.index} written twice in one session`);
    seen.add(write.index);
    if (run.writtenBefore.has(write.index)) {
      throw new Error(`row ${write.index} written again although its mark was recorded`);
    }
    if (write.row !== run.rowsGiven[write.index]) {
      throw new Error(`row ${write.index} handed to the writer is not the row given at that place`);
    }
    if (write.status === "success") {
      const own = { echo: { id: write.row.id, text: write.row.text } };
      if (JSON.stringify(write.outputs) !== JSON.stringify(own)) {
        throw new Error(
          `row ${write.index} written with outputs ${JSON.stringify(write.outputs)} (window size ${windowSize})`
        );
      }
    }
  }
}

/** The outcome and the error agree. */
function checkOutcome(result: BulkJobResult, rightRows: boolean): void {
  const { outcome, error, counts, failures } = result;
  const hasError = error !== undefined;
  if (hasError !== (outcome === "input-error" || outcome === "write-error")) {
    throw new Error(`outcome ${outcome} with error ${String(error)}`);
  }
  if (outcome === "service-error" && failures.length === 0) {
    throw new Error("service-error without a failure");
  }
  if ((outcome === "complete" || outcome === "incomplete") && failures.length > 0) {
    throw new Error(`outcome ${outcome} with ${failures.length} failures`);
  }
  if (outcome === "complete" && (counts.unknown ?? 0) > 0) {
    throw new Error(`complete with ${counts.unknown} unknown rows`);
  }
  if (outcome === "incomplete" && !((counts.unknown ?? 0) > 0)) {
    throw new Error("incomplete without an unknown row");
  }
  if (outcome === "input-error" && rightRows) {
    throw new Error(`the right rows were refused: ${String(error)}`);
  }
  if (outcome === "input-error" && !(error instanceof RowsChangedError)) {
    throw new Error(`input error other than RowsChangedError: ${String(error)}`);
  }
}

/** No row started twice unless a session asked to send again what may have started. */
function checkStarts(service: FakeBulkService, rows: ModelRow[], resent: boolean): void {
  if (resent) return;
  for (const row of rows) {
    const starts = service.startsOf({ id: row.id, text: row.text });
    if (starts > 1) throw new Error(`row ${row.id} started ${starts} times`);
  }
}
