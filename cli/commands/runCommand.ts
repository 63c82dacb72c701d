import { readFileSync } from "node:fs";
import { SpellClient, SpellRunError } from "spellrun";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { InputError } from "../errors/InputError.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { UsageError } from "../errors/UsageError.js";
import { terminalText } from "../errors/terminalText.js";

/**
 * The options of `spellrun run`.
 *
 * ## Example
 * ```ts
 * const flags: RunFlags = { input: '{"text":"hi"}', output: ["summary"] };
 * ```
 */
export interface RunFlags extends ConnectionFlags {
  input?: string;
  inputFile?: string;
  wait?: boolean;
  poll?: boolean;
  output?: string[];
}

/**
 * `spellrun run <spell>`: one run; prints its outputs as JSON on stdout, or one named output as
 * plain text. Exit code 0 on success, 1 when the run ends in failure or error (its outputs are
 * still printed), 4 when the service fails.
 *
 * ## Example
 * ```ts
 * process.exitCode = await runCommand("summarize", { input: '{"text":"Hello. World."}' });
 * ```
 * @param spellId the spell
 * @param flags the options
 * @return the exit code
 */
export async function runCommand(spellId: string, flags: RunFlags): Promise<ExitCode> {
  if (flags.wait && flags.poll) throw new UsageError("--wait and --poll exclude each other");
  const inputs = readInputs(flags);
  const client = new SpellClient(resolveConnection(flags, process.env));
  const abort = new AbortController();
  // A single run has no cancel endpoint: Ctrl-C only stops waiting for it.
  const onSigint = (): void => abort.abort();
  process.once("SIGINT", onSigint);
  try {
    const outputs = await client.runOutputs(spellId, inputs, {
      wait: !flags.poll,
      signal: abort.signal,
    });
    process.stdout.write(forStdout(describeOutputs(outputs, flags.output)));
    return EXIT_CODES.success;
  } catch (error) {
    if (abort.signal.aborted) {
      process.stderr.write(
        "spellrun: interrupted; the run itself may still finish at the service\n"
      );
      return EXIT_CODES.interrupted;
    }
    if (error instanceof SpellRunError) {
      process.stdout.write(forStdout(describeOutputs(error.outputs, undefined)));
      process.stderr.write(`spellrun: ${terminalText(error.message)}\n`);
      return EXIT_CODES.someRowsFailed;
    }
    throw error;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

function readInputs(flags: RunFlags): Record<string, unknown> {
  if (flags.input !== undefined && flags.inputFile !== undefined) {
    throw new UsageError("--input and --input-file exclude each other");
  }
  let text = flags.input ?? "{}";
  let source = "--input";
  if (flags.inputFile !== undefined) {
    source = flags.inputFile === "-" ? "stdin" : flags.inputFile;
    try {
      text = readFileSync(flags.inputFile === "-" ? 0 : flags.inputFile, "utf8");
    } catch (error) {
      throw new InputError(source, undefined, `cannot read: ${(error as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(source, undefined, `not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputError(source, undefined, "the inputs must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Outputs are data: exact when piped, without control characters on a terminal. */
function forStdout(text: string): string {
  return process.stdout.isTTY ? terminalText(text) : text;
}

function describeOutputs(outputs: Record<string, unknown>, names: string[] | undefined): string {
  if (names && names.length === 1) {
    const value = outputs[names[0]];
    return `${typeof value === "string" ? value : JSON.stringify(value ?? null)}\n`;
  }
  const picked = names ? Object.fromEntries(names.map((name) => [name, outputs[name]])) : outputs;
  return `${JSON.stringify(picked, null, 2)}\n`;
}
