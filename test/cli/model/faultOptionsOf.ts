import type { FaultOptions } from "../../../emulator/startEmulator.js";
import type { FaultName } from "./cliModelState.js";

/**
 * The emulator faults of a model fault.
 * @param fault the fault's name
 * @return the emulator's options
 */
export function faultOptionsOf(fault: FaultName): FaultOptions {
  switch (fault) {
    case "bulkStart408":
      return { rateAnswerAfterStart: 0.5, answerAfterStartStatus: 408, endpoints: ["bulkStart"] };
    case "bulkStart502":
      return { rateAnswerAfterStart: 0.5, answerAfterStartStatus: 502, endpoints: ["bulkStart"] };
    case "bulkStartDrop":
      return { dropRate: 0.5, dropPhase: "after", endpoints: ["bulkStart"] };
    case "bulkStart503":
      return { rate503: 0.5, endpoints: ["bulkStart"] };
    case "body413":
      return { bodyLimitBytes: 400, endpoints: ["bulkStart"] };
    case "reads429Storm":
      return { rate429: 0.7, retryAfterSeconds: 0, endpoints: ["getBulkRuns"] };
    case "reads500":
      return { rate500OnReads: 0.3, endpoints: ["getBulkRuns"] };
    case "unknownStates":
      return { rateUnknownState: 0.5 };
    case "shortBulkRuns":
      return { rateShortBulkRuns: 0.5 };
    default:
      return {};
  }
}
