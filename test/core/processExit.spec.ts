import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

  it("should exit within the start time limit after unsubscribing a hung bulkStart and a run queued behind it", async () => {
    let requests = 0;
    const hung = createServer(() => {
      requests++;
    });
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const startMs = 1500;
    try {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", join(here, "support", "leaveHungService.ts")],
        {
          env: { ...process.env, SPELL_BASE_URL: url, SPELL_START_MS: String(startMs) },
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
      expect(exitCode).withContext(output).toBe(0);
      // The bulkStart left in the background ends at the start limit, nothing later.
      expect(Date.now() - unsubscribedAt).toBeLessThan(startMs + 1500);
      // The queued run was never sent: one request slot, held by the bulkStart throughout.
      expect(requests).toBe(1);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  }, 20_000);
});
