import { Step } from "./Step.js";
import { countIn, type CliModel, type CliWorld } from "./cliModelState.js";

/** The service forgets every bulk run (they expired). */
export class ExpireStep extends Step {
  readonly name = "bulk runs expire";
  check(model: Readonly<CliModel>): boolean {
    return model.job !== undefined;
  }
  async act(_model: CliModel, world: CliWorld): Promise<void> {
    countIn(world.coverage.faults, "expired");
    world.emulator.expireAll();
  }
  toString(): string {
    return "the service forgets its bulk runs (expired)";
  }
}
