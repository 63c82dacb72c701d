import { runCli, startCli, waitFor, type CliResult } from "./support/spawnCli.js";
import { csvText, tempDir, type TempDir } from "./support/tables.js";
import { closedAddress } from "../helpers/closedAddress.js";

const KEY = "sk-cli-not-answering-secret";

/**
 * Runs `spellrun <args>` against `address` and waits for its early "no answer" line, noting
 * whether the command was still running (still retrying) and had not yet said its final word.
 */
async function runUntilTheEnd(
  args: string[],
  address: string
): Promise<{ result: CliResult; runningAtNotice: boolean; finalAtNotice: boolean }> {
  const cli = startCli(args, {
    PATH: process.env.PATH,
    SPELL_API_KEY: KEY,
    SPELL_BASE_URL: address,
    SPELL_POLL_BASE_URL: address,
  });
  const notice = `no answer from ${address} yet; retrying (Ctrl-C to stop)`;
  await waitFor(() => cli.output().stderr.includes(notice), 20_000, "the no-answer line");
  // The retries of a refused request last about 9 s after this line (DEFAULT_RETRY).
  const runningAtNotice = cli.child.exitCode === null && cli.child.signalCode === null;
  const finalAtNotice = cli.output().stderr.includes("nothing answered");
  return { result: await cli.exited, runningAtNotice, finalAtNotice };
}

/** How often `text` occurs in `within`. */
function occurrences(within: string, text: string): number {
  return within.split(text).length - 1;
}

describe("spellrun against a service that does not answer", () => {
  let temp: TempDir;

  beforeEach(() => (temp = tempDir()));
  afterEach(() => temp.remove());

  it("should say where it tried and how to start the emulator, never the key", async () => {
    const address = await closedAddress();
    const result = await runCli(["run", "echo", "--input", '{"n":1}'], {
      PATH: process.env.PATH,
      SPELL_API_KEY: KEY,
      SPELL_BASE_URL: address,
      SPELL_POLL_BASE_URL: address,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`nothing answered at ${address}`);
    expect(result.stderr).toContain(`npm run emulator -- --port ${new URL(address).port}`);
    expect(result.stderr).not.toContain(KEY);
  }, 60_000);

  it("should say at once, while it retries, that nothing answers yet (run)", async () => {
    const address = await closedAddress();
    const { result, runningAtNotice, finalAtNotice } = await runUntilTheEnd(
      ["run", "echo", "--input", '{"n":1}'],
      address
    );
    expect(runningAtNotice).withContext("still retrying when the line came").toBeTrue();
    expect(finalAtNotice).withContext("the final message came first").toBeFalse();
    const notice = `spellrun: no answer from ${address} yet; retrying (Ctrl-C to stop)…\n`;
    // Once, however many retries follow, and before the final message; exit code unchanged.
    expect(occurrences(result.stderr, notice)).toBe(1);
    expect(result.stderr.indexOf(notice)).toBeLessThan(
      result.stderr.indexOf(`nothing answered at ${address}`)
    );
    expect(result.code).toBe(4);
    expect(result.stderr).not.toContain(KEY);
  }, 60_000);

  it("should say at once, while it retries, that nothing answers yet (bulk)", async () => {
    const address = await closedAddress();
    const input = temp.write("in.csv", csvText(["n"], [[1], [2]]));
    const { result, runningAtNotice, finalAtNotice } = await runUntilTheEnd(
      ["bulk", "echo", input, "-o", temp.file("out.csv"), "-q"],
      address
    );
    expect(runningAtNotice).withContext("still retrying when the line came").toBeTrue();
    expect(finalAtNotice).withContext("the final message came first").toBeFalse();
    const notice = `spellrun: no answer from ${address} yet; retrying (Ctrl-C to stop)…\n`;
    expect(occurrences(result.stderr, notice)).toBe(1);
    expect(result.stderr.indexOf(notice)).toBeLessThan(result.stderr.indexOf("nothing answered"));
    // A refused bulkStart started nothing: the same exit code as before this line existed.
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("nothing was started");
    expect(result.stderr).not.toContain(KEY);
  }, 60_000);
});
