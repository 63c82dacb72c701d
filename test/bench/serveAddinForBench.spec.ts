import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { serveAddinForBench, type AddinHostForBench } from "../../bench/serveAddinForBench.js";
import { startEmulator, type RunningEmulator } from "../../emulator/startEmulator.js";
import { httpsRequest } from "../addin-server/support/httpsRequest.js";

/** A folder shaped like dist/addin: the server refuses one without taskpane.html. */
function builtAddin(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-bench-addin-"));
  writeFileSync(path.join(folder, "taskpane.html"), "<!doctype html><title>Spell Run</title>");
  writeFileSync(path.join(folder, "functions.js"), "/* the functions bundle */");
  return folder;
}

describe("serveAddinForBench (the functions benchmark's add-in host)", () => {
  let emulator: RunningEmulator;
  let host: AddinHostForBench;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.01 });
    host = await serveAddinForBench({
      addinDir: builtAddin(),
      serviceBaseUrl: emulator.baseUrl,
      servicePollBaseUrl: emulator.pollBaseUrl,
      benchFiles: {
        "index.html": { type: "text/html; charset=utf-8", body: "<!doctype html><p>bench" },
        "excel.js": { type: "text/javascript; charset=utf-8", body: "window.excel = 1;" },
      },
    });
  });
  afterAll(async () => {
    await host?.close();
    await emulator?.close();
  });

  it("should serve over https on 127.0.0.1 with the add-in server's script policy", async () => {
    expect(host.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const page = await httpsRequest(`${host.origin}/bench/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toBe("<!doctype html><p>bench");
    // The page's scripts must be files of this origin: the policy runs no inline script.
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors");
  });

  it("should serve the built add-in from its root and only the given files under /bench/", async () => {
    const functions = await httpsRequest(`${host.origin}/functions.js`);
    expect(functions.status).toBe(200);
    expect(functions.body).toBe("/* the functions bundle */");
    expect((await httpsRequest(`${host.origin}/bench/excel.js`)).body).toBe("window.excel = 1;");
    for (const missing of ["missing.js", "hasOwnProperty", "__proto__", "functions.js"]) {
      const answer = await httpsRequest(`${host.origin}/bench/${missing}`);
      expect(answer.status).withContext(missing).toBe(404);
    }
  });

  it("should forward the add-in's calls to the emulator's http:// loopback hosts", async () => {
    emulator.resetStats();
    const headers = {
      authorization: `Bearer ${emulator.apiKey}`,
      "content-type": "application/json",
    };
    const started = await httpsRequest(`${host.origin}/spell-api/spells/start`, {
      method: "POST",
      headers,
      body: JSON.stringify({ spellId: "echo", inputs: { text: "hi" }, wait: false }),
    });
    expect(started.status).toBe(200);
    const { runId } = JSON.parse(started.body) as { runId: string };
    expect(typeof runId).toBe("string");
    const polled = await httpsRequest(
      `${host.origin}/spell-poll/spells/getRun?runId=${encodeURIComponent(runId)}`,
      { headers }
    );
    expect(polled.status).toBe(200);
    expect(JSON.parse(polled.body)).toEqual(
      jasmine.objectContaining({ state: jasmine.any(String) })
    );
    expect(emulator.stats.requests).toEqual(jasmine.objectContaining({ start: 1, getRun: 1 }));
  });
});
