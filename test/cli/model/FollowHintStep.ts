import { Step } from "./Step.js";
import { broken, jobStarts } from "./cliInvariants.js";
import type { CliModel, CliWorld } from "./cliModelState.js";
import {
  journalOf,
  currentInput,
  allowFor,
  afterStep,
  expectRefusedIfChanged,
  expectClaims,
} from "./cliSteps.js";
import { runCli, lastLine } from "./runCli.js";

/** Runs the last next step the CLI printed, exactly as printed (`sh -c`). */
export class FollowHintStep extends Step {
  readonly name = "follow the printed next step";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined && model.hint !== undefined;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const hint = model.hint as string;
    world.steps.push(`    $ ${hint}`);
    const command = /^spellrun retry\b/.test(hint)
      ? "retry"
      : /^spellrun resume\b/.test(hint)
        ? "resume"
        : undefined;
    const rerunUnknown = hint.includes("--rerun-unknown");
    if (command === "retry" || rerunUnknown)
      allowFor(world, model, command ?? "resume", rerunUnknown);
    const before = jobStarts(world);
    const journal = journalOf(world, model);
    // A stdin job's user pipes the rows in again, as they did the first time.
    const stdin = model.job?.viaStdin ? currentInput(world) : undefined;
    const ran = await runCli(
      world,
      { shell: hint, ...(stdin ? { stdin } : {}) },
      "none",
      0,
      journal
    );
    const code = ran.result.code;
    if (model.input === "original" && (code === 2 || code === 127)) {
      broken(
        "a printed next step works as printed",
        `"${hint}" exited ${code}: ${lastLine(ran.result)}`
      );
    }
    model.hint = undefined;
    afterStep(model, world, [ran.result]);
    if (command !== undefined) expectRefusedIfChanged(model, world, before, hint);
    if (command !== undefined) expectClaims(model, world, ran, hint);
  }
  toString(): string {
    return "follow the printed next step";
  }
}
