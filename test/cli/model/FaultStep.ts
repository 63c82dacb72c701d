import { Step } from "./Step.js";
import { countIn, type CliModel, type CliWorld, type FaultName } from "./cliModelState.js";
import { faultOptionsOf } from "./faultOptionsOf.js";

/** Puts the service in one of the model's faults (until the next fault step). */
export class FaultStep extends Step {
  readonly name = "fault";
  constructor(
    readonly fault: FaultName,
    readonly seed: number
  ) {
    super();
  }
  check(): boolean {
    return true;
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    model.faults = this.fault;
    countIn(world.coverage.faults, this.fault);
    world.emulator.setFaults({ ...faultOptionsOf(this.fault), seed: this.seed });
  }
  toString(): string {
    return `fault ${this.fault} (seed ${this.seed})`;
  }
}
