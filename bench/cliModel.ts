/**
 * `npm run test:model-long`: the long profile of the command line's model suite
 * (test/cli/model/): thousands of random sequences of user actions, kills and service faults
 * against the real `spellrun` and the emulator, the money and data invariants checked after
 * every step. Prints the figures (sequences, steps, actions, interruptions, faults, inputs,
 * exit codes, time) and, on a failure, its seed, replay path and shrunk sequence; exit code 1
 * then. `SPELLRUN_MODEL_RUNS`, `SPELLRUN_MODEL_STEPS`, `SPELLRUN_MODEL_TIME_LIMIT_S`,
 * `SPELLRUN_MODEL_SEED`, `SPELLRUN_MODEL_PATH` (replay), `SPELLRUN_MODEL_SHRINK=0` (no shrinking).
 */
import {
  LONG_PROFILE,
  describeReport,
  profileFromEnv,
  runCliModel,
} from "../test/cli/model/runCliModel.js";

async function main(): Promise<void> {
  const report = await runCliModel(profileFromEnv(LONG_PROFILE));
  console.log(describeReport(report));
  if (report.failure) {
    console.log(`\n${report.failure}`);
    process.exitCode = 1;
  }
}

void main();
