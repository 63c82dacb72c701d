import { Writable } from "node:stream";
import {
  formatProgressLine,
  TerminalProgressLine,
  type ProgressFigures,
} from "../../cli/job/TerminalProgressLine.js";
import { ProgressReporter } from "../../cli/job/ProgressReporter.js";

const halfway: ProgressFigures = {
  written: 500,
  total: 1000,
  success: 490,
  failed: 10,
  running: 500,
  rowsPerSecond: 250,
};

describe("formatProgressLine", () => {
  it("should show the bar, counts, rate and time left", () => {
    expect(formatProgressLine(halfway)).toBe(
      `${"█".repeat(15)}${"░".repeat(15)} 500/1000 rows | ok 490 not ok 10 | in flight 500 | 250/s | ETA 2s`
    );
  });

  it("should show rows starting and rows refused apart from those in flight", () => {
    expect(formatProgressLine({ ...halfway, running: 0, starting: 500, refused: 500 })).toContain(
      "| in flight 0 | starting 500 | refused 500 |"
    );
  });

  it("should leave out the bar and the time left while the total is unknown", () => {
    expect(formatProgressLine({ ...halfway, total: undefined })).toBe(
      "500/? rows | ok 490 not ok 10 | in flight 500 | 250/s | ETA ?"
    );
  });

  it("should give the time left in minutes and hours when long", () => {
    expect(formatProgressLine({ ...halfway, rowsPerSecond: 1 })).toContain("ETA 8m20s");
    expect(formatProgressLine({ ...halfway, total: 100_000, rowsPerSecond: 1 })).toContain(
      "ETA 27h38m"
    );
  });
});

describe("TerminalProgressLine", () => {
  it("should redraw in place at most every 200 ms, then clear its line and show the cursor", () => {
    let written = "";
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    let now = 0;
    const line = new TerminalProgressLine(stream, () => now);
    line.update({ ...halfway, written: 1 });
    now = 100;
    line.update({ ...halfway, written: 2 });
    now = 250;
    line.update({ ...halfway, written: 3 });
    line.stop();

    const draws = written.split("\r").slice(1);
    expect(draws.map((draw) => /^ \S* (\d+)\//.exec(draw)?.[1])).toEqual(["1", "3", undefined]);
    expect(written.startsWith("\u001b[?25l")).toBeTrue();
    // No bar (and no ETA) is left: the line is cleared, the cursor back at its start.
    expect(written.endsWith("\r\u001b[K\u001b[?25h")).toBeTrue();
  });

  it("should clear its line on an exit in its middle (a second Ctrl-C), leaving no ETA", () => {
    let written = "";
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const line = new TerminalProgressLine(stream, () => 0);
    line.update(halfway);
    written = "";
    line.restore();
    expect(written).toBe("\r\u001b[K\u001b[?25h");
    line.restore();
    expect(written).toBe("\r\u001b[K\u001b[?25h");
  });
});

describe("ProgressReporter on a terminal", () => {
  const progress = { written: 5, total: 10, counts: { success: 5 }, running: 5 };

  function stderrOf(action: () => void): string {
    let text = "";
    const write = spyOn(process.stderr, "write").and.callFake((chunk: string | Uint8Array) => {
      text += chunk.toString();
      return true;
    });
    try {
      action();
    } finally {
      write.and.callThrough();
    }
    return text;
  }

  it("should draw no bar when the rows go to the same terminal (-o -), only whole lines", () => {
    const text = stderrOf(() => {
      const reporter = new ProgressReporter({
        quiet: false,
        everyMs: 0,
        tty: true,
        sharesTerminal: true,
      });
      reporter.update(progress);
      reporter.stop(progress);
    });
    expect(text).not.toContain("\r");
    expect(text).not.toContain("ETA");
    expect(
      text.split("\n").every((line) => line === "" || line.startsWith("spellrun: "))
    ).toBeTrue();
  });

  it("should draw the bar when the rows go elsewhere, and clear it before the final line", () => {
    const text = stderrOf(() => {
      const reporter = new ProgressReporter({ quiet: false, everyMs: 0, tty: true });
      reporter.update(progress);
      reporter.stop(progress);
    });
    expect(text).toContain("ETA");
    expect(text).toContain("\r\u001b[K\u001b[?25hspellrun: 5/10 rows written");
  });
});
