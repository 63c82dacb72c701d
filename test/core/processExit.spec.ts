import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { waitUntil } from "./support/collect.js";
import { later, startScriptedService } from "./support/scriptedService.js";

const here = typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));

/** How a child process of `support/` ended after printing "unsubscribed". */
interface ChildEnd {
  exitCode: number | null;
  output: string;
  /** From the child's "unsubscribed" to its exit. */
  msAfterUnsubscribe: number;
}

/** Runs `support/<script>` in its own Node process until it exits (killed after 15 s). */
async function runChild(script: string, env: Record<string, string>): Promise<ChildEnd> {
  const child = spawn(process.execPath, ["--import", "tsx", join(here, "support", script)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  return { exitCode, output, msAfterUnsubscribe: Date.now() - unsubscribedAt };
}

describe("SpellClient in a Node process", () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 1 });
  });

  afterAll(async () => {
    await emulator.close();
  });

  it("should let the process exit by itself soon after unsubscribe (no stray timers or sockets)", async () => {
    const end = await runChild("subscribeAndLeave.ts", {
      SPELL_BASE_URL: emulator.baseUrl,
      SPELL_POLL_BASE_URL: emulator.pollBaseUrl,
      SPELL_API_KEY: emulator.apiKey,
    });
    expect(end.exitCode).withContext(end.output).toBe(0);
    // Poll and retry timers are seconds long: exiting within one second means none was left.
    // (The background cancelBulk requests take a few ms on loopback.)
    expect(end.msAfterUnsubscribe).toBeLessThan(1000);
    // the three groups were cancelled, once each
    await waitUntil(() => emulator.stats.requests.cancelBulk >= 3, "the three cancelBulks");
    expect(emulator.stats.requests.cancelBulk).toBe(3);
    expect(emulator.stats.bulkGroupsCreated).toBe(3);
  }, 20_000);

  it("should exit within the start time limit after unsubscribing a hung bulkStart and a run queued behind it", async () => {
    const service = await startScriptedService(() => "hang");
    const startMs = 1500;
    try {
      const end = await runChild("leaveHungService.ts", {
        SPELL_BASE_URL: service.baseUrl,
        SPELL_START_MS: String(startMs),
      });
      expect(end.exitCode).withContext(end.output).toBe(0);
      // The bulkStart left in the background ends at the start limit, nothing later.
      expect(end.msAfterUnsubscribe).toBeLessThan(startMs + 1500);
      // The queued run was never sent: one request slot, held by the bulkStart throughout.
      expect(service.requests.map((request) => request.endpoint)).toEqual(["bulkStart"]);
    } finally {
      await service.close();
    }
  }, 20_000);

  it("should exit within the read time limit after unsubscribing a bulk whose cancelBulk hangs (start limit left at 60 s)", async () => {
    // The group starts and is polled; its cancelBulk never answers. A cancel is a read: the
    // process is free after readMs, not after the much longer start limit.
    const service = await startScriptedService((request) => {
      if (request.endpoint === "bulkStart") return { body: { runId: "g-1" } };
      if (request.endpoint === "getBulkRuns") {
        return { body: { runs: [{ state: "inProgress", outputs: {} }] } };
      }
      return "hang";
    });
    const readMs = 1500;
    try {
      const end = await runChild("leaveHungService.ts", {
        SPELL_BASE_URL: service.baseUrl,
        SPELL_START_MS: "60000",
        SPELL_READ_MS: String(readMs),
      });
      expect(end.exitCode).withContext(end.output).toBe(0);
      expect(end.msAfterUnsubscribe).toBeLessThan(readMs + 1000);
      const endpoints = service.requests.map((request) => request.endpoint);
      expect(endpoints[0]).toBe("bulkStart");
      // The group was cancelled once, and the cancel was what hung.
      expect(endpoints.filter((endpoint) => endpoint === "cancelBulk")).toEqual(["cancelBulk"]);
      expect(endpoints[endpoints.length - 1]).toBe("cancelBulk");
      expect(service.open).withContext("the hung cancelBulk's connection was closed").toBe(0);
    } finally {
      await service.close();
    }
  }, 20_000);

  it("should exit within the start time limit when a late bulkStart answer leads to a cancelBulk that hangs", async () => {
    // bulkStart answers 1 s after it was sent (0.7 s after the unsubscribe); cancelBulk never
    // answers, and its own read limit (10 s) is longer than the start limit.
    const service = await startScriptedService((request) =>
      request.endpoint === "bulkStart" ? later(1000, { body: { runId: "g-late" } }) : "hang"
    );
    const startMs = 2000;
    try {
      const end = await runChild("leaveHungService.ts", {
        SPELL_BASE_URL: service.baseUrl,
        SPELL_START_MS: String(startMs),
        SPELL_READ_MS: "10000",
      });
      expect(end.exitCode).withContext(end.output).toBe(0);
      expect(end.msAfterUnsubscribe).toBeLessThan(startMs + 1500);
      // The group was still cancelled, once; the run queued behind it was never sent.
      expect(service.requests.map((request) => request.endpoint)).toEqual([
        "bulkStart",
        "cancelBulk",
      ]);
      expect(service.requests[1].body).toEqual({ groupId: "g-late" });
    } finally {
      await service.close();
    }
  }, 20_000);
});
