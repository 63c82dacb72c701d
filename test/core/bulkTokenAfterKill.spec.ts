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

  it("should say the chunks the token does not name may have been sent", async () => {
    const { baseUrl, pollBaseUrl, apiKey } = emulator;
    const client = new SpellClient({
      baseUrl,
      pollBaseUrl,
      apiKey,
      bulkChunkSize: 2,
      poll: { initialDelayMs: 20, intervalMs: 20, growth: 1, maxIntervalMs: 20 },
    });
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
});
