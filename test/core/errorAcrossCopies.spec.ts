import { buildSync } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import * as ours from "../../src/index.js";

/**
 * A second, separate copy of the library, as a program gets when it loads the CommonJS build
 * beside the ES module build (or two versions): the whole of src/ (and rxjs) bundled once more.
 */
function otherCopy(): typeof ours {
  const folder = mkdtempSync(path.join(tmpdir(), "spellrun-copy-"));
  try {
    const file = path.join(folder, "copy.cjs");
    const built = buildSync({
      entryPoints: [path.join(__dirname, "../../src/index.ts")],
      bundle: true,
      format: "cjs",
      platform: "node",
      write: false,
      logLevel: "silent",
    });
    writeFileSync(file, built.outputFiles[0].contents);
    return createRequire(__filename)(file) as typeof ours;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("errors across copies of the library", () => {
  let copy: typeof ours;

  beforeAll(() => {
    copy = otherCopy();
  });

  it("should be a truly separate copy (its classes are not ours)", () => {
    expect(copy.SpellHttpError).not.toBe(ours.SpellHttpError);
    expect(Object.getPrototypeOf(copy.SpellHttpError.prototype)).not.toBe(
      ours.SpellError.prototype
    );
  });

  it("should recognise the other copy's SpellHttpError with instanceof, per class", () => {
    const theirs = new copy.SpellHttpError(429, {}, "POST", "start");
    expect(theirs instanceof ours.SpellHttpError).toBeTrue();
    expect(theirs instanceof ours.SpellError).toBeTrue();
    expect(theirs instanceof ours.SpellRunError).toBeFalse();
    expect(theirs instanceof ours.SpellTimeoutError).toBeFalse();
    const mine = new ours.SpellRunError("failure", { reason: "bad input" }, 7);
    expect(mine instanceof copy.SpellRunError).toBeTrue();
    expect(mine instanceof copy.SpellHttpError).toBeFalse();
  });

  it("should recognise every error class of the other copy with isSpellError, and nothing else", () => {
    expect(ours.isSpellError(new copy.SpellNetworkError("POST", "start", undefined))).toBeTrue();
    expect(ours.isSpellError(new copy.SpellError("x"))).toBeTrue();
    expect(copy.isSpellError(new ours.SpellProtocolError("GET", "getRun", "x", {}))).toBeTrue();
    for (const other of [new Error("x"), { name: "SpellError" }, null, undefined, "SpellError"]) {
      expect(ours.isSpellError(other)).toBeFalse();
    }
  });

  it("should keep a subclass of ours without its own errorName to its prototype chain", () => {
    class MyTimeout extends ours.SpellTimeoutError {}
    expect(new copy.SpellTimeoutError("POST", "start", 1000) instanceof MyTimeout).toBeFalse();
    const mine = new MyTimeout("POST", "start", 1000);
    expect(mine instanceof MyTimeout).toBeTrue();
    expect(mine instanceof copy.SpellTimeoutError).toBeTrue();
  });
});

describe("SpellRunError's message", () => {
  it("should name the failure reason the spell gave", () => {
    const error = new ours.SpellRunError("failure", { error: " Input too long " }, 12);
    expect(error.message).toBe('Spell run 12 ended in state "failure": Input too long');
    expect(error.reason).toBe("Input too long");
  });

  it("should keep the message as it was without a reason, and quote a long reason shortened", () => {
    expect(new ours.SpellRunError("error", { code: 7 }).message).toBe(
      'Spell run ended in state "error"'
    );
    const long = "x".repeat(1000);
    const error = new ours.SpellRunError("failure", { reason: long });
    expect(error.message.length).toBeLessThan(400);
    expect(error.reason).toBe(long);
  });
});
