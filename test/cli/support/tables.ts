import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";

/** A temporary folder for one spec's files, removed by `remove()`. */
export interface TempDir {
  dir: string;
  file(name: string): string;
  write(name: string, text: string): string;
  read(name: string): string;
  remove(): void;
}

/** Creates a temporary folder. */
export function tempDir(): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), "spellrun-cli-"));
  return {
    dir,
    file: (name) => path.join(dir, name),
    write: (name, text) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    },
    read: (name) => readFileSync(path.join(dir, name), "utf8"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** CSV text of a header and rows (no quoting needed by the specs' values unless given). */
export function csvText(header: string[], rows: (string | number)[][]): string {
  return [header, ...rows].map((cells) => cells.join(",")).join("\n") + "\n";
}

/** Parses a CSV output into records keyed by header. */
export function readCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

/** Parses a JSONL output. */
export function readJsonl(
  text: string
): { input: Record<string, unknown>; status: string; outputs: Record<string, unknown> }[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(line) as {
          input: Record<string, unknown>;
          status: string;
          outputs: Record<string, unknown>;
        }
    );
}

/** Journal records of a journal file. */
export function readJournal(file: string): { type: string; [field: string]: unknown }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { type: string; [field: string]: unknown });
}
