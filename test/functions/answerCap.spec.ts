import { spellRun } from "../../functions/functions.js";
import { clearRememberedResults } from "../../addin/rememberedResults.js";
import { saveSettings } from "../../addin/settings/saveSettings.js";
import { memoryStorage, useKeyValueStorage } from "../../addin/keyValueStorage.js";
import { resetSharedClient } from "../../addin/sharedClient.js";
import { resetSpendingGuard } from "../../addin/spendingGuard.js";
import { startScriptedService, type ScriptedService } from "../core/support/scriptedService.js";
import { cancelableInvocation } from "./support/excelInvocations.js";

/** A finished run whose one output is `mebibytes` MiB of text. */
const bigAnswer = (mebibytes: number) =>
  `{"state":"success","outputs":{"text":"${"x".repeat(mebibytes * 1024 * 1024)}"}}`;

describe("the add-in's answer cap (shared runtime)", () => {
  let service: ScriptedService;

  beforeEach(async () => {
    service = await startScriptedService((request) =>
      request.endpoint === "start" ? { body: { runId: "r1" } } : { body: bigAnswer(5) }
    );
    useKeyValueStorage(memoryStorage());
    await resetSpendingGuard();
    await resetSharedClient();
    await clearRememberedResults();
    await saveSettings({
      apiKey: "sk-answer-cap-spec-1",
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
      batchRuns: false,
    });
  });
  afterEach(async () => {
    await service.close();
    await resetSharedClient();
    useKeyValueStorage(undefined);
  });

  const run = () =>
    spellRun("echo", [['{"a":1}']], [["text"]], cancelableInvocation()).then(
      (row) => String(row[0][0]).length,
      (error: { message: string }) => error.message
    );

  it("should read a 5 MiB answer with 8 requests in flight (32 MiB each)", async () => {
    await saveSettings({ maxInFlight: 8 });
    // Read whole, then cut to what a cell holds.
    expect(await run()).toBe(32_767);
  });

  it("should refuse it with 64 in flight (4 MiB each: 256 MiB for all)", async () => {
    await saveSettings({ maxInFlight: 64 });
    expect(await run()).toMatch(/larger than|too large|4194304/i);
  });
});
