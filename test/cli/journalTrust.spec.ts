import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { useEmulator } from "../emulator/support/useEmulator.js";
import { startScriptedService, type ScriptedService } from "../core/support/scriptedService.js";
import { cliEnv, runCli } from "./support/spawnCli.js";
import { csvText, readCsv, tempDir, type TempDir } from "./support/tables.js";

const API_KEY = "sk-cli-spec-trust-91d0";

describe("journals and files the command line did not write (hostile)", () => {
  const fixture = useEmulator({ timeScale: 0.02, apiKey: API_KEY, countBulkInputs: true });
  let temp: TempDir;
  let planted: ScriptedService;

  beforeEach(async () => {
    temp = tempDir();
    fixture.emulator.resetStats();
    // The host a planted journal names: it records whatever reaches it.
    planted = await startScriptedService(() => ({ body: { runId: "stolen" } }));
  });
  afterEach(async () => {
    temp.remove();
    await planted.close();
  });

  const sentToEmulator = () =>
    Object.values(fixture.emulator.stats.requests).reduce((sum, count) => sum + count, 0);

  /** Every file under the temporary folder with its content, to prove nothing else changed. */
  const snapshot = () => {
    const files: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else files[path.relative(temp.dir, full)] = readFileSync(full, "utf8");
      }
    };
    walk(temp.dir);
    return files;
  };

  /**
   * A journal planted in `job/`: its job reads a secret from elsewhere, writes over a victim
   * file elsewhere and talks to the planted host; nothing of it has run yet.
   */
  function plantJournal(addresses: { baseUrl: string; pollBaseUrl: string }): string {
    mkdirSync(temp.file("job"));
    mkdirSync(temp.file("elsewhere"));
    temp.write("elsewhere/secret.csv", "token\nssh-rsa AAAA-private\n");
    temp.write("elsewhere/victim.txt", "precious\n");
    temp.write("job/in.csv", csvText(["text"], [["a"], ["b"]]));
    // As bulk leaves it when stopped before its first row: an empty output beside the journal.
    temp.write("job/out.csv", "");
    const job = {
      type: "job",
      version: 1,
      spellId: "echo",
      input: temp.file("elsewhere/secret.csv"),
      inputFormat: "csv",
      output: temp.file("elsewhere/victim.txt"),
      outputFormat: "csv",
      chunkSize: 500,
      mapping: { rename: {} },
      csvGuard: true,
      ...addresses,
      authHeader: "authorization",
    };
    return temp.write("job/out.csv.journal", `${JSON.stringify(job)}\n`);
  }

  it("should send nothing to a planted journal's host when the environment names another service", async () => {
    const journal = plantJournal({ baseUrl: planted.baseUrl, pollBaseUrl: planted.pollBaseUrl });
    const before = snapshot();
    const result = await runCli(
      ["resume", journal, "--input", temp.file("job/in.csv")],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("nothing was sent");
    expect(planted.requests.length).toBe(0);
    expect(sentToEmulator()).toBe(0);
    expect(snapshot()).toEqual(before);
  }, 30_000);

  it("should not take the key to a journal's host when no address is given", async () => {
    const journal = plantJournal({ baseUrl: planted.baseUrl, pollBaseUrl: planted.pollBaseUrl });
    const before = snapshot();
    const env = cliEnv(fixture.emulator);
    delete env.SPELL_BASE_URL;
    delete env.SPELL_POLL_BASE_URL;
    const result = await runCli(["resume", journal, "--input", temp.file("job/in.csv")], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("a journal never chooses where the key is sent");
    expect(planted.requests.length).toBe(0);
    expect(snapshot()).toEqual(before);
  }, 30_000);

  it("should neither read an input outside the journal's folder nor write where the journal says", async () => {
    const journal = plantJournal(fixture.emulator);
    const before = snapshot();
    const refused = await runCli(["resume", journal], cliEnv(fixture.emulator));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("outside the journal's own folder");
    expect(sentToEmulator()).toBe(0);
    expect(snapshot()).toEqual(before);

    // The user names the input: the job runs, and its output is the journal's own neighbour.
    const confirmed = await runCli(
      ["resume", journal, "--input", temp.file("job/in.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(confirmed.stderr).toBe("");
    expect(confirmed.code).toBe(0);
    expect(readCsv(temp.read("job/out.csv")).map((row) => row.text)).toEqual(["a", "b"]);
    expect(temp.read("elsewhere/victim.txt")).toBe("precious\n");
    expect(Object.keys(fixture.emulator.stats.bulkCreatedByKey).join()).not.toContain("ssh-rsa");
  }, 30_000);

  it("should name the line of a record that is not valid, and the format version it reads", async () => {
    const journal = plantJournal(fixture.emulator);
    const job = readFileSync(journal, "utf8");
    writeFileSync(journal, job.replace('"version":1', '"version":2'));
    const newer = await runCli(["resume", journal], cliEnv(fixture.emulator));
    expect(newer.code).not.toBe(0);
    expect(newer.stderr).toContain("line 1 is not a journal record");
    expect(newer.stderr).toContain("format version 2");

    writeFileSync(
      journal,
      `${job}{"type":"intent","window":0,"firstRow":0,"count":2}\n{"type":"group","window":0,"groupId":7}\n`
    );
    const bad = await runCli(["status", journal], cliEnv(fixture.emulator));
    expect(bad.stderr).toContain("line 3 is not a journal record");
    expect(sentToEmulator()).toBe(0);
  }, 30_000);

  it("should refuse to write through a symbolic link, and to overwrite a file it did not write", async () => {
    const input = temp.write("in.csv", csvText(["text"], [["a"]]));
    const victim = temp.write("victim.txt", "precious\n");
    symlinkSync(victim, temp.file("linked.csv"));
    const linked = await runCli(
      ["bulk", "echo", input, "-o", temp.file("linked.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(linked.code).not.toBe(0);
    expect(linked.stderr).toContain("symbolic link");
    expect(temp.read("victim.txt")).toBe("precious\n");

    const notOurs = temp.write("notes.csv", "my,own\nnotes,here\n");
    const kept = await runCli(
      ["bulk", "echo", input, "-o", notOurs, "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain("pass --force");
    expect(temp.read("notes.csv")).toBe("my,own\nnotes,here\n");
    expect(sentToEmulator()).toBe(0);

    const forced = await runCli(
      ["bulk", "echo", input, "-o", notOurs, "--force", "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(forced.code).toBe(0);
    expect(readCsv(temp.read("notes.csv"))[0].text).toBe("a");
    // Its own output (its journal beside it) is replaced by the next run without --force.
    const again = await runCli(
      ["bulk", "echo", input, "-o", notOurs, "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(again.code).toBe(0);
  }, 30_000);

  it("should create outputs and journals readable by the user only (0600)", async () => {
    const input = temp.write("in.csv", csvText(["text"], [["a"]]));
    const result = await runCli(
      ["bulk", "echo", input, "-o", temp.file("out.csv"), "--quiet"],
      cliEnv(fixture.emulator)
    );
    expect(result.code).toBe(0);
    expect(statSync(temp.file("out.csv")).mode & 0o777).toBe(0o600);
    expect(statSync(temp.file("out.csv.journal")).mode & 0o777).toBe(0o600);
  }, 30_000);
});
