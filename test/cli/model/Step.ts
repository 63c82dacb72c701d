import fc from "fast-check";
import { countIn, type CliModel, type CliWorld, type Interruption } from "./cliModelState.js";

/** Parameters of a job-running step. */
export interface JobParams {
  interruption: Interruption;
  delayMs: number;
  tty: boolean;
}

/**
 * One action of the model suite: `check` says when it may run, `act` runs it against the world
 * (the commands, the emulator, the files); `run` counts it and logs it first.
 */
export abstract class Step implements fc.AsyncCommand<CliModel, CliWorld> {
  abstract readonly name: string;
  abstract check(model: Readonly<CliModel>): boolean;
  abstract act(model: CliModel, world: CliWorld): Promise<void>;
  abstract toString(): string;
  async run(model: CliModel, world: CliWorld): Promise<void> {
    world.coverage.steps++;
    countIn(world.coverage.actions, this.name);
    world.steps.push(
      `${world.steps.filter((s) => !s.startsWith(" ")).length + 1}. ${this.toString()}`
    );
    await this.act(model, world);
  }
}
