/**
 * The few lines `npm test`'s summary shows about a failed step, read from the runner's output:
 * CI keeps only the end of the output, and a flaky spec must be named there to be found again.
 */

/** One failed spec (or suite) as a runner reported it. */
export interface ReportedFailure {
  /** The spec's full name (describe names and `it`), or "Suite error: <suite>". */
  name: string;
  /** The first line of the failure's first message ("" when the runner printed none). */
  message: string;
}

/** What a runner's output says about its failures. */
export interface FailureReport {
  failures: ReportedFailure[];
  /** Jasmine's random-order seed, to run the same order again (`--seed=`). */
  seed?: string;
  /** Jasmine's reason when the run did not complete (e.g. "fit() or fdescribe() was found"). */
  incomplete?: string;
}

// Runners colour their output; the names are read from the plain text.
// eslint-disable-next-line no-control-regex
const plain = (output: string) => output.replace(/\u001b\[[0-9;]*m/g, "");

/** The first non-blank line after `lines[from]`, trimmed, or "". */
function nextText(lines: string[], from: number, stop: RegExp): string {
  for (let index = from + 1; index < lines.length && !stop.test(lines[index]); index++) {
    const text = lines[index].trim();
    if (text) return text;
  }
  return "";
}

/**
 * Reads jasmine's console reporter: the "Failures:" list ("1) <full name>", then "Message:" and
 * its lines), "Suite error: <name>" entries (an afterAll that threw), the seed and "Incomplete:".
 *
 * ## Example
 * ```ts
 * jasmineFailures("Failures:\n1) a b\n  Message:\n    Expected 1 to be 2.\n");
 * // { failures: [{ name: "a b", message: "Expected 1 to be 2." }] }
 * ```
 *
 * @param output Everything the runner printed (stdout and stderr).
 * @return The failures in the order jasmine listed them.
 */
export function jasmineFailures(output: string): FailureReport {
  const lines = plain(output).split(/\r?\n/);
  // The list is printed after the dots: start at the last "Failures:" (or the first suite error).
  let start = lines.lastIndexOf("Failures:");
  if (start < 0) start = lines.findIndex((line) => line.startsWith("Suite error: "));
  const failures: ReportedFailure[] = [];
  const entry = /^(?:\d+\) (.*)|(Suite error: .*))$/;
  for (let index = Math.max(start, 0); start >= 0 && index < lines.length; index++) {
    // The pending specs are listed after the failures, numbered the same way.
    if (lines[index] === "Pending:" || /^\d+ specs?, /.test(lines[index])) break;
    const match = entry.exec(lines[index]);
    if (!match) continue;
    const messageAt = lines.findIndex(
      (line, at) => at > index && (line.trim() === "Message:" || entry.test(line))
    );
    const message =
      messageAt > index && lines[messageAt].trim() === "Message:"
        ? nextText(lines, messageAt, /^\s{0,2}Stack:$/)
        : "";
    failures.push({ name: (match[1] ?? match[2]).trim(), message });
  }
  const seeds = [...plain(output).matchAll(/Randomized with seed (\d+)/g)];
  const incomplete = /^Incomplete: (.*)$/m.exec(plain(output));
  return {
    failures,
    ...(seeds.length > 0 ? { seed: seeds[seeds.length - 1][1] } : {}),
    ...(incomplete ? { incomplete: incomplete[1].trim() } : {}),
  };
}

/**
 * Reads karma-spec-reporter's final list after "TOTAL: n FAILED": "1) <spec>", its suite names on
 * the next line, then the failure's log; falls back to the "✗ <spec>" lines printed as specs ran
 * (a run cut short prints no final list).
 *
 * ## Example
 * ```ts
 * karmaFailures("TOTAL: 1 FAILED, 3 SUCCESS\n\n1) should x\n     suite\n     Expected 1 to be 2.\n");
 * // { failures: [{ name: "suite should x", message: "Expected 1 to be 2." }] }
 * ```
 *
 * @param output Everything the runner printed (stdout and stderr).
 * @return The failures in the order Karma listed them.
 */
export function karmaFailures(output: string): FailureReport {
  const lines = plain(output).split(/\r?\n/);
  let total = lines.length - 1;
  while (total >= 0 && !/TOTAL: \d+ FAILED/.test(lines[total])) total--;
  const failures: ReportedFailure[] = [];
  if (total >= 0) {
    const entry = /^(\d+)\) (.*)$/;
    for (let index = total + 1; index < lines.length; index++) {
      const match = entry.exec(lines[index]);
      if (!match) continue;
      const suite = (lines[index + 1] ?? "").trim();
      failures.push({
        name: `${suite} ${match[2].trim()}`.trim(),
        message: nextText(lines, index + 1, entry),
      });
    }
    return { failures };
  }
  lines.forEach((line, index) => {
    const match = /^\s*[✗×] (.*?)(?: \(\d+ms\))?$/.exec(line);
    if (match) failures.push({ name: match[1], message: nextText(lines, index, /^\s*[✓✗×]/) });
  });
  return { failures };
}

/**
 * The lines `npm test` prints under its summary for one failed step: each failure's name and the
 * first line of its message, at most `limit` of them, and jasmine's seed.
 *
 * ## Example
 * ```ts
 * failureLines("node specs", jasmineFailures(output), 5);
 * // ["node specs: 1 failed (seed 03913: --seed=03913)", "  1) a b", "     Expected 1 to be 2."]
 * ```
 *
 * @param step The step's name.
 * @param report What its runner printed about its failures.
 * @param limit How many failures to name; the rest are counted.
 * @return The lines, none longer than 160 characters.
 */
export function failureLines(step: string, report: FailureReport, limit: number): string[] {
  const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}...` : text);
  const seed = report.seed ? ` (random order, seed ${report.seed}: --seed=${report.seed})` : "";
  const lines = [`${step}: ${report.failures.length} failed${seed}`];
  if (report.incomplete) lines.push(clip(`  incomplete: ${report.incomplete}`));
  report.failures.slice(0, limit).forEach((failure, index) => {
    lines.push(clip(`  ${index + 1}) ${failure.name}`));
    if (failure.message) lines.push(clip(`     ${failure.message}`));
  });
  if (report.failures.length > limit) {
    lines.push(`  ... and ${report.failures.length - limit} more (see the output above)`);
  }
  return lines;
}

/**
 * Reads a check script's own report (scripts/checkPackage.ts, checkEngines.ts): each line that
 * starts with `FAIL` names a failed check, its detail after the check's name.
 *
 * ## Example
 * ```ts
 * checkFailures("ok    ESM import\nFAIL  types under bundler resolution: error TS18028\n");
 * // { failures: [{ name: "types under bundler resolution: error TS18028", message: "" }] }
 * ```
 *
 * @param output Everything the script printed.
 * @return The failed checks in the order printed.
 */
export function checkFailures(output: string): FailureReport {
  const failures = plain(output)
    .split(/\r?\n/)
    .map((line) => /^FAIL\s+(.*)$/.exec(line)?.[1]?.trim())
    .filter((name): name is string => Boolean(name))
    .map((name) => ({ name, message: "" }));
  return { failures };
}
