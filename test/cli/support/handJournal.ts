import { writeFileSync } from "node:fs";
import type { RunningEmulator } from "../../../emulator/startEmulator.js";

/**
 * Writes `<output>.journal` by hand: a job record (fields overridable) and further records, as
 * `spellrun bulk` would have left them. For specs of resume, retry and status.
 */
export function handJournal(
  emulator: RunningEmulator,
  files: { input: string; output: string },
  job: Record<string, unknown> = {},
  records: object[] = []
): string {
  const first = {
    type: "job",
    version: 1,
    spellId: "echo",
    input: files.input,
    inputFormat: "csv",
    output: files.output,
    outputFormat: "csv",
    chunkSize: 2,
    mapping: { rename: {} },
    csvGuard: true,
    baseUrl: emulator.baseUrl,
    pollBaseUrl: emulator.pollBaseUrl,
    authHeader: "authorization",
    ...job,
  };
  const path = `${files.output}.journal`;
  writeFileSync(path, [first, ...records].map((r) => `${JSON.stringify(r)}\n`).join(""), {
    mode: 0o600,
  });
  return path;
}
