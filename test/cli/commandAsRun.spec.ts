import { Writable } from "node:stream";
import { commandAsRun } from "../../cli/errors/commandAsRun.js";
import { TerminalProgressLine } from "../../cli/job/TerminalProgressLine.js";

describe("commandAsRun (hints name the command as the user ran it)", () => {
  it("should say npx spellrun under npx, npm run spellrun -- from the sources, else spellrun", () => {
    expect(commandAsRun({ npm_command: "exec", npm_lifecycle_event: "npx" })).toBe("npx spellrun");
    expect(commandAsRun({ npm_command: "run-script", npm_lifecycle_event: "spellrun" })).toBe(
      "npm run spellrun --"
    );
    expect(commandAsRun({})).toBe("spellrun");
  });
});

describe("TerminalProgressLine.note (the Ctrl-C line on a terminal)", () => {
  it("should clear the progress line, echoed ^C included, put the note on its own line, then redraw below", () => {
    let written = "";
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    let now = 0;
    const line = new TerminalProgressLine(stream, () => now);
    const figures = { written: 1, total: 10, success: 1, failed: 0, running: 9, rowsPerSecond: 1 };
    line.update(figures);
    written = "";
    line.note("spellrun: cancelling");
    expect(written).toBe("\r\u001b[Kspellrun: cancelling\n");
    now += 10; // well within the redraw interval: drawn anyway, below the note
    line.update(figures);
    expect(written.slice("\r\u001b[Kspellrun: cancelling\n".length)).toMatch(/^\r .* 1\/10 rows/);
  });
});
