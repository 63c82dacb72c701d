import { existsSync } from "node:fs";
import { Step } from "./Step.js";
import { broken, journalComplete, journalRecords } from "./cliInvariants.js";
import type { CliModel, CliWorld } from "./cliModelState.js";
import { journalOf, relative, afterStep } from "./cliSteps.js";
import { runCli } from "./runCli.js";

/** `spellrun status <journal>`: exit 0 exactly when the journal says complete. */
export class StatusStep extends Step {
  readonly name = "status";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const journal = journalOf(world, model);
    const ran = await runCli(
      world,
      { args: ["status", relative(world, journal)] },
      "none",
      0,
      journal
    );
    const complete = journalComplete(journal);
    if (
      existsSync(journal) &&
      (ran.result.code === 0) !== complete &&
      (ran.result.code === 0 || ran.result.code === 1)
    ) {
      broken(
        "exit codes agree with docs/cli.md",
        `status exited ${ran.result.code}, the journal ${complete ? "says" : "does not say"} complete`
      );
    }
    expectSubmittedRows(journal, ran.result.stdout);
    afterStep(model, world, [ran.result]);
  }
  toString(): string {
    return "status";
  }
}

/**
 * Status's "N submitted" is the rows sent to the service (each window's latest intent: its `sent`
 * rows, all of them when absent), never the rows a retry copied from the earlier output.
 */
function expectSubmittedRows(journal: string, stdout: string): void {
  const shown = /^rows .*?; (\d+) submitted in/m.exec(stdout);
  if (!shown) return;
  const intents = new Map<number, number>();
  for (const record of journalRecords(journal)) {
    if (record.type !== "intent") continue;
    const sent = (record.sent as number | undefined) ?? (record.count as number);
    intents.set(record.window as number, sent);
  }
  const sent = [...intents.values()].reduce((sum, count) => sum + count, 0);
  if (Number(shown[1]) !== sent) {
    broken(
      "status counts the journal right",
      `status says ${shown[1]} submitted, the journal's intents sent ${sent} rows`
    );
  }
}
