import { writeFileSync } from "node:fs";
import { Step } from "./Step.js";
import type { CliModel, CliWorld } from "./cliModelState.js";
import { tableBytes } from "./modelTable.js";

/** The user edits, truncates or restores the input between runs. */
export class EditInputStep extends Step {
  readonly name: string;
  constructor(readonly kind: "edit" | "truncate" | "restore") {
    super();
    this.name = `input ${kind}`;
  }
  check(model: Readonly<CliModel>): boolean {
    // A stdin job keeps no fingerprint of its rows: its user pipes the same rows again
    // (docs/cli.md); a wrong stdin is the resume's short or empty feed.
    if (model.job?.viaStdin) return false;
    return this.kind === "restore" ? model.input !== "original" : model.input === "original";
  }
  async act(model: CliModel, world: CliWorld): Promise<void> {
    const bytes = tableBytes(world.table);
    if (this.kind === "restore") writeFileSync(world.inputPath, bytes);
    else if (this.kind === "truncate")
      writeFileSync(world.inputPath, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    else {
      // Same size, one byte different near the end: only a fingerprint of the content sees it.
      const edited = Buffer.from(bytes);
      const at =
        edited.lastIndexOf(Buffer.from(world.table.format === "jsonl" ? '"id":"' : "\n")) - 1;
      edited[Math.max(0, at)] = edited[Math.max(0, at)] === 0x41 ? 0x42 : 0x41;
      writeFileSync(world.inputPath, edited);
    }
    model.input =
      this.kind === "restore" ? "original" : this.kind === "edit" ? "edited" : "truncated";
  }
  toString(): string {
    return `input ${this.kind}`;
  }
}
