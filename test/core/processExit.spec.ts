import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { pause } from "./support/collect.js";

const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));

describe("SpellClient in a Node process", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 1 });
  });

  afterAll(async () => {
    await emulator.close();
  });

  it("should let the process exit by itself soon after unsubscribe (no stray timers or sockets)", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(here, "support", "subscribeAndLeave.ts")],
      {
        env: {
          ...process.env,
          SPELL_BASE_URL: emulator.baseUrl,
          SPELL_POLL_BASE_URL: emulator.pollBaseUrl,
          SPELL_API_KEY: emulator.apiKey,
        },
        stdio: ["ignore", "pipe", "pipe"],
      }
    );
    let output = "";
    let unsubscribedAt = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (!unsubscribedAt && output.includes("unsubscribed")) unsubscribedAt = Date.now();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => {
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.on("exit", (code) => {
        clearTimeout(killer);
        resolve(code);
      });
    });
    expect(output).toContain("unsubscribed");
    expect(exitCode).withContext(output).toBe(0);
    // Poll and retry timers are seconds long: exiting within one second means none was left.
    // (The background cancelBulk requests take a few ms on loopback.)
    expect(Date.now() - unsubscribedAt).toBeLessThan(1000);
    // the three groups were cancelled, once each
    await pause(100);
    expect(emulator.stats.requests.cancelBulk).toBe(3);
    expect(emulator.stats.bulkGroupsCreated).toBe(3);
  }, 20_000);
});
