import { Subject, lastValueFrom, last, takeWhile, tap } from "rxjs";
import { SpellClient, type BulkResumeToken } from "../../src/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";

/**
 * The plain `bulk` and a resume token saved from its snapshots, killed right after a save: the
 * next chunk's bulkStart may have left before the snapshot naming it, so the token lags. A resume
 * must never call such a chunk "not submitted" (which invites a paid resend).
 */
describe("SpellClient.resumeBulk after a kill right after a token was saved", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02 });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.resetStats());

  function chunkedClient(): SpellClient {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    return new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      bulkChunkSize: 2,
      poll: { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 },
    });
  }

  it("should say the chunks the token does not name may have been sent", async () => {
    const client = chunkedClient();
    const rows = Array.from({ length: 6 }, (_, id) => ({ id, ms: 20_000 }));
    const kill$ = new Subject<void>();
    let saved: BulkResumeToken | undefined;
    await lastValueFrom(
      client.bulk("sleep", rows, { detach: kill$ }).pipe(
        tap((snapshot) => {
          // The first save that names a group; the process dies right after it (no cancel).
          if (saved === undefined && snapshot.resume.groupIds.length > 0) {
            saved = structuredClone(snapshot.resume);
            kill$.next();
          }
        })
      ),
      { defaultValue: undefined }
    );
    expect(saved).toBeDefined();
    const token = saved as BulkResumeToken;
    expect(token.groupIds.length).toBeLessThan(token.chunkSizes.length);
    // Let the chunks whose bulkStart was in flight reach the service.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed = await lastValueFrom(
      client.resumeBulk(token, rows.length).pipe(
        takeWhile((snapshot) => !snapshot.done, true),
        last()
      )
    );
    const named = token.chunkSizes
      .slice(0, token.groupIds.length)
      .reduce((sum, size) => sum + size, 0);
    for (const [index, run] of resumed.runs.entries()) {
      const text = JSON.stringify(run.outputs);
      expect(text).not.toMatch(/not submitted/i);
      if (index >= named)
        expect(text)
          .withContext(`row ${index}`)
          .toMatch(/may have been sent/);
    }
  });

  it("should tell, from the token saved by the intent hook, the chunks surely not sent", async () => {
    const client = chunkedClient();
    const rows = Array.from({ length: 6 }, (_, id) => ({ id, ms: 20_000, hook: true }));
    const kill$ = new Subject<void>();
    const saved: BulkResumeToken[] = [];
    await lastValueFrom(
      client.bulk("sleep", rows, {
        detach: kill$,
        beforeChunkStart: (token) => {
          saved.push(structuredClone(token));
          // The process dies right after saving the intent of chunk 1: its bulkStart never leaves.
          if (token.mayHaveSent === 2) {
            kill$.next();
            return new Promise<never>(() => undefined);
          }
          return Promise.resolve();
        },
      }),
      { defaultValue: undefined }
    );
    expect(saved.map((token) => [token.groupIds.length, token.mayHaveSent])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(emulator.stats.bulkRunsCreated).toBe(2);
    const resumed = await lastValueFrom(
      client.resumeBulk(saved[1], rows.length).pipe(
        takeWhile((snapshot) => !snapshot.done, true),
        last()
      )
    );
    expect(resumed.runs.slice(0, 2).map((run) => run.state)).toEqual(["success", "success"]);
    // Chunk 1: its intent was saved, so it may have been sent; chunk 2: surely not.
    for (const run of resumed.runs.slice(2, 4)) {
      expect(JSON.stringify(run.outputs)).toMatch(/may have been sent/);
    }
    for (const run of resumed.runs.slice(4)) {
      expect(JSON.stringify(run.outputs)).toMatch(/^\{"error":"Not sent: /);
    }
  });

  it("should send nothing more when the intent hook fails", async () => {
    const client = chunkedClient();
    const rows = Array.from({ length: 4 }, (_, id) => ({ id, ms: 20_000, failing: true }));
    let calls = 0;
    await expectAsync(
      lastValueFrom(
        client.bulk("sleep", rows, {
          beforeChunkStart: () => {
            calls++;
            return calls === 2 ? Promise.reject(new Error("disk full")) : Promise.resolve();
          },
        })
      )
    ).toBeRejectedWithError("disk full");
    expect(emulator.stats.bulkRunsCreated).toBe(2);
  });
});
