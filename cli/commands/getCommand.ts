import { SpellClient, SpellRunError, type RunSnapshot } from "spellrun";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { UsageError } from "../errors/UsageError.js";
import { terminalText } from "../errors/terminalText.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { printRunOutputs } from "./printRunOutputs.js";

/**
 * The options of `spellrun get`.
 *
 * ## Example
 * ```ts
 * const flags: GetFlags = { output: ["summary"] };
 * ```
 */
export interface GetFlags extends ConnectionFlags {
  output?: string[];
}

/**
 * `spellrun get <runId>`: fetches a single run started earlier (the id `spellrun run` prints when
 * a wait-mode start ended before the run did) from the poll host (`--poll-base-url` /
 * `SPELL_POLL_BASE_URL`), polling until it ends, and prints its outputs as `run` does. Starts
 * nothing. Exit codes as `run`: 0 success, 1 the run failed or errored (outputs printed), 4 the
 * service failed (an unknown id: 404).
 *
 * ## Example
 * ```ts
 * process.exitCode = await getCommand("r-42", {});
 * ```
 * @param runId the run id
 * @param flags the options
 * @return the exit code
 */
export async function getCommand(runId: string, flags: GetFlags): Promise<ExitCode> {
  if (runId.trim() === "") throw new UsageError("get needs a run id");
  const client = new SpellClient(resolveConnection(flags, process.env));
  let stop = (): void => {};
  const onSigint = (): void => stop();
  process.once("SIGINT", onSigint);
  try {
    const last = await new Promise<RunSnapshot | "interrupted">((resolve, reject) => {
      let latest: RunSnapshot | undefined;
      const subscription = client.resumeRun(runId).subscribe({
        next: (snapshot) => (latest = snapshot),
        error: reject,
        complete: () =>
          latest ? resolve(latest) : reject(new Error("the run ended without a result")),
      });
      stop = () => {
        subscription.unsubscribe();
        resolve("interrupted");
      };
    });
    if (last === "interrupted") {
      process.stderr.write("spellrun: interrupted; the run itself goes on at the service\n");
      return EXIT_CODES.interrupted;
    }
    printRunOutputs(last.outputs, flags.output);
    return EXIT_CODES.success;
  } catch (error) {
    if (error instanceof SpellRunError) {
      printRunOutputs(error.outputs);
      process.stderr.write(`spellrun: ${terminalText(error.message)}\n`);
      return EXIT_CODES.someRowsFailed;
    }
    throw error;
  } finally {
    process.off("SIGINT", onSigint);
  }
}
