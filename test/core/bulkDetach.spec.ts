import { lastValueFrom, Subject, takeWhile, tap, last } from "rxjs";
import { SpellClient, type BulkSnapshot } from "../../src/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";

describe("SpellClient.bulk with detach", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.resetStats());

  function client(): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      bulkChunkSize: 2,
      poll: { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 },
    });
  }

  it("should complete without cancelling the groups, which a resume then collects", async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ({ id: i, ms: 20_000 })); // 400 ms each
    const detach$ = new Subject<void>();
    const spell = client();
    let token: BulkSnapshot["resume"] | undefined;
    const detached = await lastValueFrom(
      spell.bulk("sleep", rows, { detach: detach$ }).pipe(
        tap((snapshot) => {
          token = snapshot.resume;
          if (snapshot.groupIds.length === 2) detach$.next();
        })
      ),
      { defaultValue: undefined }
    );
    expect(detached?.done).toBeFalse();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(emulator.stats.requests.cancelBulk).toBe(0);

    const collected = await lastValueFrom(
      spell.resumeBulk(token!, rows.length).pipe(
        takeWhile((snapshot) => !snapshot.done, true),
        last()
      )
    );
    expect(collected.runs.map((run) => run.state)).toEqual(new Array(4).fill("success"));
    expect(emulator.stats.bulkRunsCreated).toBe(4);
    expect(emulator.stats.requests.cancelBulk).toBe(0);
  });

  it("should still cancel every unfinished group on unsubscribe", async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ({ id: i, ms: 30_000_000 }));
    const subscription = client()
      .bulk("sleep", rows, { detach: new Subject<void>() })
      .subscribe((snapshot) => {
        if (snapshot.groupIds.length === 2) subscription.unsubscribe();
      });
    const deadline = Date.now() + 5000;
    while (emulator.stats.requests.cancelBulk < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(emulator.stats.requests.cancelBulk).toBe(2);
  });
});
