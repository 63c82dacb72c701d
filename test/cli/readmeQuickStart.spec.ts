import { execFileSync, spawn } from "node:child_process";
import { userEnvironment } from "../../scripts/userEnvironment.js";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

/** The shell block of README's "Quick start: from the command line", as written. */
function readmeCommandLineBlock(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start: from the command line"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README has no sh block under 'Quick start: from the command line'");
  return block.trimEnd().split("\n");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("README's command-line quick start (run as written from a fresh clone)", () => {
  let work: string;
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it("should install the command globally from the packed tarballs and run the sample file", async () => {
    const lines = readmeCommandLineBlock();
    const versionOf = (manifest: string) =>
      (JSON.parse(readFileSync(path.join(root, manifest), "utf8")) as { version: string }).version;
    // The first line installs the clone's dependencies; here the checkout's own (the same
    // lockfile) are linked instead of installed again, as scripts/checkPackage.ts does.
    expect(lines[0]).toBe("npm ci");
    // The command's package with the library's: neither is on the registry.
    expect(lines.join("\n")).toContain(
      `npm install --global ./spellrun-${versionOf("package.json")}.tgz ./spellrun-cli-${versionOf("cli/package.json")}.tgz`
    );

    work = mkdtempSync(path.join(os.tmpdir(), "spellrun-readme-"));
    const clone = path.join(work, "clone");
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", root, clone]);
    symlinkSync(path.join(root, "node_modules"), path.join(clone, "node_modules"), "dir");

    // The emulator's ports: free ones here (the README's 3001/3002 may be taken on this machine).
    const [port, pollPort] = [await freePort(), await freePort()];
    const script = lines
      .slice(1)
      .join("\n")
      .replaceAll("127.0.0.1:3001", `127.0.0.1:${port}`)
      .replaceAll("127.0.0.1:3002", `127.0.0.1:${pollPort}`);
    const prefix = path.join(work, "global");
    const child = spawn("bash", ["-e", "-c", script], {
      cwd: clone,
      detached: true,
      env: {
        // A user's shell: not npm test's npm_config_* (the repository's legacy-peer-deps).
        ...userEnvironment(),
        // A global folder of the user's own, as the README suggests where npm's needs root.
        npm_config_prefix: prefix,
        npm_config_fund: "false",
        npm_config_audit: "false",
        PATH: `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH}`,
        SPELL_EMULATOR_PORT: String(port),
        SPELL_EMULATOR_POLL_PORT: String(pollPort),
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // "exit", not "close": an emulator that outlived the script's `kill` would hold the output open.
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    // The script's `kill $emulator` stopped the emulator itself: nothing of its group is left
    // (a script has no job control, and `npm run emulator & … kill %1` left node running).
    let leftRunning = true;
    for (let waited = 0; leftRunning && waited < 5000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      try {
        process.kill(-child.pid!, 0);
      } catch {
        leftRunning = false;
      }
    }
    const left = leftRunning
      ? execFileSync("ps", ["-o", "pid,args", "-g", String(child.pid)], { encoding: "utf8" })
      : "";
    try {
      process.kill(-child.pid!, "SIGTERM"); // clean up after a failure
    } catch {
      // already gone
    }
    expect(left).withContext("processes the script left running").toBe("");
    expect(code).withContext(`${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/^positive$/m);
    expect(stdout).toContain("id,review,status,summary,words,error,other_outputs");
    expect(stdout).toContain("1,Great product. Would buy again.,success,Great product.,5,,");
    // The formula-looking review is the user's own cell, as in the file; the spell's summary of
    // it comes back guarded, as text.
    expect(stdout).toContain(
      `5,"=HYPERLINK(""http://evil.example"",""click"")",success,"'=HYPERLINK(`
    );
  }, 240_000);
});
