/**
 * The emulator's command line: `tsx emulator/cli.ts [--port 3001] [--rate-429 0.2] ...`
 * (`npm run emulator`). Prints its URLs and the local development key, and stops cleanly on
 * SIGINT / SIGTERM. `--help` lists every flag and its environment variable.
 *
 * @example
 * ```sh
 * npx tsx emulator/cli.ts --time-scale 0.1 --rate-429 0.2 --seed 7
 * ```
 * @module
 */
import { describeFaults } from "./describeFaults.js";
import { CLI_USAGE, parseCliOptions } from "./parseCliOptions.js";
import type { CliOptions } from "./parseCliOptions.js";
import { startEmulator } from "./startEmulator.js";

async function main(): Promise<void> {
  let cli: CliOptions;
  try {
    cli = parseCliOptions(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`spell emulator: ${(error as Error).message}\n\n${CLI_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (cli.help) {
    console.log(CLI_USAGE);
    return;
  }
  const emulator = await startEmulator(cli.options);
  // The key is the emulator's own local development key; printing it is the point.
  console.log(
    [
      "Spell service emulator running",
      `  base URL  ${emulator.baseUrl}   (start, bulkStart, cancelBulk, getBulkRuns)`,
      `  poll URL  ${emulator.pollBaseUrl}   (getRun)`,
      `  API key   ${emulator.apiKey}`,
      `  faults    ${describeFaults(cli.options.faults ?? {})}`,
      `Try: curl -s -X POST ${emulator.baseUrl}/spells/start -H "Authorization: Bearer ${emulator.apiKey}" \\`,
      `       -H "Content-Type: application/json" \\`,
      `       -d '{"spellId":"summarize","wait":"true","inputs":{"text":"Spells run workflows. They are stored."}}'`,
      "Ctrl+C stops it.",
    ].join("\n")
  );
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the emulator`);
    emulator.close().then(
      () => (process.exitCode = 0),
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      }
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`spell emulator: ${(error as Error).message ?? error}`);
  process.exitCode = 1;
});
