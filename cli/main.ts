#!/usr/bin/env node
/**
 * The `spellrun` executable (package.json `bin`): parses the command line and turns errors into
 * one message on stderr and an exit code (see `EXIT_CODES`). Never prints the API key: no
 * message is built from it.
 *
 * @example
 * ```sh
 * SPELL_API_KEY=... npx spellrun bulk summarize reviews.csv -o summaries.csv
 * ```
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { fileURLToPath } from "node:url";
import { CommanderError } from "commander";
import { SpellError } from "spellrun";
import { CliError } from "./errors/CliError.js";
import { describeServiceError } from "./errors/describeServiceError.js";
import { createProgram } from "./commands/createProgram.js";
import { emulatorIsInstalled } from "./commands/emulatorCommand.js";
import { EXIT_CODES } from "./errors/exitCodes.js";
import { terminalText } from "./errors/terminalText.js";
import { endByHangup, startedOnTerminal } from "./job/endByHangup.js";

// A bulk job streams: its live heap stays small (~20 MB at a million rows) while it allocates
// fast, and V8's default lets the heap grow to about four times the live size between full GCs.
// A 1.5× growth factor keeps the peak RSS well under 200 MB for about 10 % more GC time
// (bench/cli.ts). A flag given on node's own command line wins.
if (!process.execArgv.some((flag) => flag.startsWith("--heap-growing-percent"))) {
  v8.setFlagsFromString("--heap-growing-percent=50");
}

/** The version of the command's package, spellrun-cli (cli/package.json, or the installed one). */
function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "spellrun-cli" && manifest.version) return manifest.version;
    }
    if (path.dirname(dir) === dir) return "unknown";
  }
}

const terminalAtStart = startedOnTerminal();

createProgram(packageVersion(), {
  emulator: emulatorIsInstalled(fileURLToPath(import.meta.url)),
})
  .parseAsync(process.argv)
  // After the command's own exit listeners (the journal lock's): a hangup ends by its signal.
  .then(() => endByHangup(terminalAtStart))
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      // Commander has printed its own message (or the help).
      process.exitCode = error.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
      return;
    }
    // Messages quote services, files and journals: no control character reaches the terminal.
    if (error instanceof CliError) {
      process.stderr.write(`spellrun: ${terminalText(error.message)}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof SpellError) {
      process.stderr.write(`spellrun: ${terminalText(describeServiceError(error))}\n`);
      process.exitCode = EXIT_CODES.service;
      return;
    }
    process.stderr.write(
      `spellrun: unexpected error: ${terminalText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`
    );
    process.exitCode = EXIT_CODES.someRowsFailed;
  });
