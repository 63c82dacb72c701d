import { UsageError } from "../errors/UsageError.js";
import { terminalText } from "../errors/terminalText.js";
import { writeIgnoringClosedPipe } from "../errors/writeIgnoringClosedPipe.js";

/**
 * Prints a single run's outputs on stdout (`spellrun run`, `spellrun get`): all of them as JSON,
 * the ones named by `--output`, or one named output as plain text. Outputs are data: exact on a
 * pipe, without control characters on a terminal; a reader that closed the pipe ends nothing
 * badly. An `--output` name the run does not have is refused after the whole outputs were
 * printed as JSON (the run is paid for: its outputs are not thrown away).
 *
 * ## Example
 * ```ts
 * printRunOutputs({ summary: "A.", words: 1 }, ["summary"]); // prints "A."
 * ```
 * @param outputs the run's outputs
 * @param names the `--output` names, if any
 * @throws UsageError when a name is not an output of the run (the outputs are printed first)
 */
export function printRunOutputs(outputs: Record<string, unknown>, names?: string[]): void {
  const own = (name: string) => Object.prototype.hasOwnProperty.call(outputs, name);
  const missing = (names ?? []).filter((name) => !own(name));
  if (missing.length > 0) {
    writeStdout(describeOutputs(outputs, undefined));
    const available = Object.keys(outputs);
    throw new UsageError(
      `--output ${missing.map((name) => `"${name}"`).join(", ")}: no such output of this run (its outputs: ${available.length > 0 ? available.join(", ") : "none"}); all of them were printed as JSON above`
    );
  }
  writeStdout(describeOutputs(outputs, names));
}

function writeStdout(text: string): void {
  writeIgnoringClosedPipe(process.stdout, process.stdout.isTTY ? terminalText(text) : text);
}

function describeOutputs(outputs: Record<string, unknown>, names: string[] | undefined): string {
  if (names && names.length === 1) {
    const value = outputs[names[0]];
    return `${typeof value === "string" ? value : JSON.stringify(value ?? null)}\n`;
  }
  const picked = names ? Object.fromEntries(names.map((name) => [name, outputs[name]])) : outputs;
  return `${JSON.stringify(picked, null, 2)}\n`;
}
