import { FAST_PROFILE, describeReport, profileFromEnv, runCliModel } from "./runCliModel.js";

// The fast profile of the model suite (the long one: npm run test:model-long). A failure names
// its seed and shrunk sequence; SPELLRUN_MODEL_SEED (and SPELLRUN_MODEL_PATH) replay it.
describe("spellrun by generated paths", () => {
  it("should keep its money and data promises after every step of random user sequences", async () => {
    const report = await runCliModel(profileFromEnv(FAST_PROFILE));
    console.log(`\n${describeReport(report)}`);
    if (report.failure) fail(report.failure);
    expect(report.coverage.steps).toBeGreaterThan(0);
  }, 150_000);
});
