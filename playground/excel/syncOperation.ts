/** The operations a mock batch queues until `context.sync()`. */
import type { OfficeMockObject } from "office-addin-mock";
import type { CellBlock } from "./a1.js";

/** One queued operation of a batch, applied in order at `context.sync()`. */
export type SyncOperation =
  | { kind: "write"; sheet: string; block: CellBlock; property: WritableProperty; data: unknown }
  | {
      kind: "load";
      target: OfficeMockObject;
      sheet: string;
      block: CellBlock;
      properties: string[];
    }
  | { kind: "calculate"; calculationType: string }
  | { kind: "calculateRange"; sheet: string; block: CellBlock }
  | { kind: "insert"; sheet: string; block: CellBlock; shift: string }
  | { kind: "delete"; sheet: string; block: CellBlock; shift: string }
  | { kind: "lookup"; target: OfficeMockObject; fill: () => void }
  | { kind: "name"; name: string; target: { sheet: string; block: CellBlock } | undefined }
  | { kind: "fail"; code: string; message: string }
  | { kind: "requireSheet"; name: string }
  | { kind: "addSheet"; name: string }
  | { kind: "visibility"; name: string; visibility: string };

/** The range properties a batch writes. */
export type WritableProperty = "values" | "formulas" | "numberFormat";
/** `WritableProperty` as a list, to test a property name. */
export const WRITABLE: readonly string[] = ["values", "formulas", "numberFormat"];
/** The texts `office-addin-mock` returns for a property read too early; the proxies throw instead. */
export const MOCK_ERRORS = [
  "Error, property was not loaded",
  "Error, context.sync() was not called",
];
