import fc from "fast-check";
import { checkScenario } from "./support/engineModel.js";
import { scenarios } from "./support/scenarios.js";

/**
 * The engine's promises about money and data, by generated paths: random rows and windows, kills
 * at every record and start, resumes with right and wrong rows, two workers, refused and lost
 * starts. Fast profile here; `SPELLRUN_MODEL_RUNS=2000` for the long one. A failure prints its
 * seed and path (rerun with `SPELLRUN_MODEL_SEED` and `SPELLRUN_MODEL_PATH`).
 */
describe("BulkJobRunner model", () => {
  it("should write each row once with its own outputs, start none twice unless asked, and end with an outcome that agrees with its error", async () => {
    const runs = Number(process.env.SPELLRUN_MODEL_RUNS ?? 150);
    const seed = process.env.SPELLRUN_MODEL_SEED;
    const path = process.env.SPELLRUN_MODEL_PATH;
    await fc.assert(fc.asyncProperty(scenarios, checkScenario), {
      numRuns: runs,
      ...(seed === undefined ? {} : { seed: Number(seed) }),
      ...(path === undefined ? {} : { path }),
      verbose: 1,
    });
  }, 120_000);
});
