import { mkdtempSync, rmSync, writeFileSync, appendFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BulkJobRunner,
  LeaseHeldError,
  MemoryCheckpointStore,
  callbackResultWriter,
  type Checkpoint,
  type CheckpointRecord,
  type CheckpointStore,
  type FinishedJobRow,
} from "../../src/index.js";
import { FileCheckpointStore } from "../../src/node/index.js";
import { FakeBulkService } from "./support/FakeBulkService.js";

const ROWS = Array.from({ length: 15 }, (_, id) => id);

/** Two workers resuming one checkpoint: the lease lets one run the job, the other sends nothing. */
describe("BulkJobRunner's lease", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "spellrun-lease-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const stores: [string, (records: CheckpointRecord[]) => CheckpointStore][] = [
    ["MemoryCheckpointStore", (records) => new MemoryCheckpointStore(records)],
    [
      "FileCheckpointStore",
      (records) => {
        const path = join(dir, `job-${Math.random().toString(36).slice(2)}.checkpoint`);
        writeFileSync(path, records.map((record) => JSON.stringify(record) + "\n").join(""));
        return new FileCheckpointStore(path);
      },
    ],
  ];

  function worker(
    service: FakeBulkService,
    store: CheckpointStore,
    name: string,
    resume?: Checkpoint,
    rows = ROWS
  ) {
    const writes: FinishedJobRow<number>[] = [];
    const job = new BulkJobRunner<number>({
      client: service.client(),
      spellId: "echo",
      rows,
      inputsOf: (row) => ({ row }),
      windowSize: 5,
      maxWindows: 1,
      store,
      writer: callbackResultWriter((row) => void writes.push(row)),
      leaseOwner: name,
      ...(resume ? { resume } : {}),
    });
    return { job, writes };
  }

  /** What a kill left: window 0 sent and answered, windows 1 and 2 not sent. */
  async function killedAfterWindow0(service: FakeBulkService): Promise<CheckpointRecord[]> {
    const store = new MemoryCheckpointStore();
    // The first worker sent window 0 only before it was killed.
    const first = worker(service, store, "first", undefined, ROWS.slice(0, 5));
    await first.job.run();
    const cut = store.records.findIndex((record) => record.type === "group");
    return store.records.slice(0, cut + 1);
  }

  for (const [name, open] of stores) {
    it(`should let one of two workers resuming one checkpoint send, and refuse the other (${name})`, async () => {
      const service = new FakeBulkService();
      const records = await killedAfterWindow0(service);
      const starts = service.starts;
      const store = open(records);
      const resume = await store.load();
      const runs = await Promise.allSettled([
        worker(service, store, "a", resume).job.run(),
        worker(service, store, "b", resume).job.run(),
      ]);
      const done = runs.filter((run) => run.status === "fulfilled");
      const refused = runs.filter((run) => run.status === "rejected");
      expect(done.length).toBe(1);
      expect(refused.length).toBe(1);
      expect((refused[0] as PromiseRejectedResult).reason).toEqual(jasmine.any(LeaseHeldError));
      // Windows 1 and 2, once each.
      expect(service.starts).toBe(starts + 2);
      for (const row of ROWS) expect(service.startsOf({ row })).toBe(1);
    });

    it(`should read the checkpoint again once it holds the lease, so a stale one sends nothing (${name})`, async () => {
      const service = new FakeBulkService();
      const records = await killedAfterWindow0(service);
      const store = open(records);
      const stale = await store.load();
      await worker(service, store, "a", stale).job.run();
      const starts = service.starts;
      // Worker b loaded the checkpoint before worker a ran, and runs after it.
      const result = await worker(service, store, "b", stale).job.run();
      expect(result.outcome).toBe("complete");
      expect(service.starts).toBe(starts);
      for (const row of ROWS) expect(service.startsOf({ row })).toBe(1);
    });
  }

  it("should take over the lease of a dead worker once it expired, and keep a live one", () => {
    let now = 1_000_000;
    const path = join(dir, "takeover.checkpoint");
    const store = new FileCheckpointStore(path, () => now);
    store.acquireLease({ owner: "dead", ttlMs: 1000 });
    expect(() => store.acquireLease({ owner: "next", ttlMs: 1000 })).toThrowError(LeaseHeldError);
    now += 1001;
    store.acquireLease({ owner: "next", ttlMs: 1000 });
    expect(() => store.acquireLease({ owner: "dead", ttlMs: 1000 })).toThrowError(LeaseHeldError);
    store.releaseLease("dead");
    expect(existsSync(store.leasePath)).toBeTrue();
    store.releaseLease("next");
    expect(existsSync(store.leasePath)).toBeFalse();
  });

  it("should skip a torn last line (a kill mid-write) when it loads", () => {
    const path = join(dir, "torn.checkpoint");
    const store = new FileCheckpointStore(path);
    store.recordIntent({ window: 0, firstRow: 0, count: 5 });
    store.recordGroup(0, "g0");
    appendFileSync(path, '{"type":"intent","window":1,"fir');
    expect(store.load()?.windows).toEqual(new Map([[0, { count: 5, groupId: "g0" }]]));
  });
});
