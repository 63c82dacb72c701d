/**
 * `npm run bench`: every benchmark, one after the other, each in its own process so one's memory
 * and timers cannot colour another's figures. Each prints its own table, with ratios against a
 * baseline measured in the same run. Arguments after `--` name the ones to run:
 * `npm run bench -- core taskpane`.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const all = ["core", "functions", "taskpane", "cli", "inFlight"];
const chosen = process.argv.slice(2).filter((name) => all.includes(name));
let failed = 0;
for (const name of chosen.length > 0 ? chosen : all) {
  console.log(`\n### bench/${name}.ts\n`);
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--expose-gc", path.join(__dirname, `${name}.ts`)],
    { stdio: "inherit" }
  );
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
