import {
  checkFailures,
  failureLines,
  jasmineFailures,
  karmaFailures,
} from "../../scripts/failureSummary.js";

/**
 * What jasmine 5's console reporter printed for two failed specs, an afterAll that threw and a
 * pending spec (listed after the failures, numbered the same way).
 */
const JASMINE_OUTPUT = `Randomized with seed 53893
Started
\u001b[31mF\u001b[0m\u001b[31mF\u001b[0m.

Failures:
1) outer inner throws
  Message:
\u001b[31m    Error: boom
    second line\u001b[0m
  Stack:
        at UserContext.<anonymous> (/tmp/a.spec.js:5:32)
        at <Jasmine>

2) outer inner should fail twice
  Message:
    Expected 1 to be 2.
  Stack:
        at <Jasmine>
  Message:
    Expected 'a
    b' to be 'c'.
  Stack:
        at <Jasmine>

Suite error: outer
  Message:
    Error: after all broke
  Stack:
        at UserContext.<anonymous> (/tmp/a.spec.js:7:26)

Pending:

1) outer inner later
  Temporarily disabled with xit

4 specs, 3 failures, 1 pending spec
Finished in 0.013 seconds
Randomized with seed 53893 (jasmine --random=true --seed=53893)
`;

/** What karma-spec-reporter printed for one failed spec. */
const KARMA_OUTPUT = `
  outer
    inner
      ✗ should fail (5ms)
\tExpected 1 to be 2.
\t    at <Jasmine>
      ✓ passes (1ms)

Chrome Headless 120.0.0.0 (Linux x86_64): Executed 2 of 2 (1 FAILED) (0.01 secs / 0.005 secs)
TOTAL: 1 FAILED, 1 SUCCESS


1) should fail
     outer inner
     Expected 1 to be 2.
    at <Jasmine>
`;

describe("failureSummary", () => {
  it("should name each failed jasmine spec and suite with the first line of its first message, and the seed", () => {
    expect(jasmineFailures(JASMINE_OUTPUT)).toEqual({
      failures: [
        { name: "outer inner throws", message: "Error: boom" },
        { name: "outer inner should fail twice", message: "Expected 1 to be 2." },
        { name: "Suite error: outer", message: "Error: after all broke" },
      ],
      seed: "53893",
    });
  });

  it("should name nothing in a jasmine run that passed, and say why a run was incomplete", () => {
    const output =
      "Started\n...\n\n3 specs, 0 failures\nIncomplete: fit() or fdescribe() was found\n";
    expect(jasmineFailures(output)).toEqual({
      failures: [],
      incomplete: "fit() or fdescribe() was found",
    });
  });

  it("should name each failed Karma spec with its suites and first message line", () => {
    expect(karmaFailures(KARMA_OUTPUT)).toEqual({
      failures: [{ name: "outer inner should fail", message: "Expected 1 to be 2." }],
    });
  });

  it("should fall back to the ✗ lines when Karma printed no final list", () => {
    const cut = KARMA_OUTPUT.slice(0, KARMA_OUTPUT.indexOf("Chrome Headless"));
    expect(karmaFailures(cut)).toEqual({
      failures: [{ name: "should fail", message: "Expected 1 to be 2." }],
    });
  });

  it("should keep the summary short: a few failures named, the rest counted, long lines clipped", () => {
    const failures = Array.from({ length: 6 }, (_, index) => ({
      name: `spec ${index} ${"x".repeat(200)}`,
      message: `Expected ${index} to be ${index + 1}.`,
    }));

    const lines = failureLines("node specs", { failures, seed: "00042" }, 4);

    expect(lines.length).toBe(1 + 4 * 2 + 1);
    expect(lines[0]).toBe("node specs: 6 failed (random order, seed 00042: --seed=00042)");
    expect(lines[1]).toMatch(/^ {2}1\) spec 0 x+\.\.\.$/);
    expect(lines[2]).toBe("     Expected 0 to be 1.");
    expect(lines[lines.length - 1]).toBe("  ... and 2 more (see the output above)");
    lines.forEach((line) => expect(line.length).toBeLessThanOrEqual(160));
  });

  it("should name a check script's failed checks (the package step), not its passed ones", () => {
    const output =
      "ok    ESM import: function function\n" +
      "FAIL  types under bundler resolution: SpellClient.d.ts(24,5): error TS18028\n" +
      "ok    the library has no spellrun command\npackage: 22 checks passed, 1 failed\n";
    expect(checkFailures(output).failures).toEqual([
      {
        name: "types under bundler resolution: SpellClient.d.ts(24,5): error TS18028",
        message: "",
      },
    ]);
    expect(checkFailures("ok    all\n").failures).toEqual([]);
  });
});
