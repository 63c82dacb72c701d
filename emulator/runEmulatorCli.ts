import { describeFaults } from "./describeFaults.js";
import { CLI_USAGE, parseCliOptions } from "./parseCliOptions.js";
import type { CliOptions } from "./parseCliOptions.js";
import { startEmulator } from "./startEmulator.js";

/**
 * The emulator's command line, shared by `npm run emulator` (emulator/cli.ts) and
 * `spellrun emulator`: parses the flags, starts the emulator, prints its URLs and the local
 * development key, and stops cleanly on SIGINT / SIGTERM.
 *
 * @example
 * ```ts
 * await runEmulatorCli(["--time-scale", "0.1"], process.env);
 * ```
 * @param argv the flags (without node and the script)
 * @param env the environment (flags can come from variables, see `--help`)
 */
export async function runEmulatorCli(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  let cli: CliOptions;
  try {
    cli = parseCliOptions(argv, env);
  } catch (error) {
    console.error(`spell emulator: ${(error as Error).message}\n\n${CLI_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (cli.help) {
    console.log(CLI_USAGE);
    return;
  }
  const emulator = await startEmulator(
    cli.log ? { ...cli.options, requestLog: (line) => console.log(line) } : cli.options
  );
  // The key is the emulator's own local development key; printing it is the point.
  console.log(
    [
      "Spell service emulator running",
      `  base URL  ${emulator.baseUrl}   (start, bulkStart, cancelBulk, getBulkRuns)`,
      `  poll URL  ${emulator.pollBaseUrl}   (getRun)`,
      `  API key   ${emulator.apiKey}`,
      `  faults    ${describeFaults(cli.options.faults ?? {})}`,
      `  requests  ${cli.log ? "logged below, one line each" : "not logged (--log prints one line each)"}`,
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
