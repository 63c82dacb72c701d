import { Writable } from "node:stream";
import {
  formatProgressLine,
  TerminalProgressLine,
  type ProgressFigures,
} from "../../cli/job/TerminalProgressLine.js";

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
  it("should redraw in place at most every 200 ms, then end the line and show the cursor", () => {
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
    line.stop({ ...halfway, written: 4 });

    const draws = written.split("\r").slice(1);
    expect(draws.map((draw) => /^ \S* (\d+)\//.exec(draw)?.[1])).toEqual(["1", "3", "4"]);
    expect(written.startsWith("\u001b[?25l")).toBeTrue();
    expect(written.endsWith("\n\u001b[?25h")).toBeTrue();
  });
});
