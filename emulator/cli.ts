/**
 * The emulator's command line: `tsx emulator/cli.ts [--port 3001] [--rate-429 0.2] ...`
 * (`npm run emulator`, also `spellrun emulator`). Prints its URLs and the local development
 * key, and stops cleanly on SIGINT / SIGTERM. `--help` lists every flag and its environment
 * variable.
 *
 * @example
 * ```sh
 * npx tsx emulator/cli.ts --time-scale 0.1 --rate-429 0.2 --seed 7
 * ```
 * @module
 */
import { runEmulatorCli } from "./runEmulatorCli.js";

runEmulatorCli(process.argv.slice(2), process.env).catch((error: unknown) => {
  console.error(`spell emulator: ${(error as Error).message ?? error}`);
  process.exitCode = 1;
});
