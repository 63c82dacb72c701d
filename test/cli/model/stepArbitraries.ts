import fc from "fast-check";
import { ClosedPipeStep } from "./ClosedPipeStep.js";
import { EditInputStep } from "./EditInputStep.js";
import { ExpireStep } from "./ExpireStep.js";
import { FaultStep } from "./FaultStep.js";
import { FollowHintStep } from "./FollowHintStep.js";
import { StatusStep } from "./StatusStep.js";
import { Step } from "./Step.js";
import { FAULT_NAMES, INTERRUPTIONS, type Interruption } from "./cliModelState.js";
import { BulkStep, ResumeStep, RetryStep, TwoResumesStep } from "./cliSteps.js";

const jobParams = {
  interruption: fc.constantFrom<Interruption>(...INTERRUPTIONS, "none", "none"),
  delayMs: fc.integer({ min: 0, max: 400 }),
  tty: fc.boolean(),
};

/** The first step of every sequence: a bulk job. */
export const bulkStepArbitrary: fc.Arbitrary<BulkStep> = fc
  .record({
    ...jobParams,
    stdin: fc.boolean(),
    outputFormat: fc.constantFrom<"csv" | "jsonl">("csv", "csv", "jsonl"),
    chunkSize: fc.integer({ min: 1, max: 4 }),
    maxInFlight: fc.integer({ min: 1, max: 3 }),
    declareEncoding: fc.boolean(),
    overBudget: fc.boolean(),
  })
  .map((params) => new BulkStep(params));

/** Every later step. */
export const stepArbitraries: fc.Arbitrary<Step>[] = [
  fc
    .record({
      ...jobParams,
      rerunUnknown: fc.boolean(),
      stdinFeed: fc.constantFrom<"full" | "empty" | "short">("full", "empty", "short"),
    })
    .map(
      (params) =>
        new ResumeStep({ ...params, rerunUnknown: params.rerunUnknown && params.delayMs % 4 === 0 })
    ),
  fc
    .record({ ...jobParams, rerunUnknown: fc.boolean() })
    .map(
      (params) =>
        new RetryStep({ ...params, rerunUnknown: params.rerunUnknown && params.delayMs % 4 === 0 })
    ),
  fc.constant(new StatusStep()),
  fc.constant(new FollowHintStep()),
  fc.constant(new FollowHintStep()),
  fc.constant(new TwoResumesStep()),
  fc.constant(new ClosedPipeStep()),
  fc
    .constantFrom<"edit" | "truncate" | "restore">("edit", "truncate", "restore")
    .map((kind) => new EditInputStep(kind)),
  fc
    .tuple(fc.constantFrom(...FAULT_NAMES), fc.integer({ min: 1, max: 1000 }))
    .map(([fault, seed]) => new FaultStep(fault, seed)),
  fc.constant(new ExpireStep()),
];
