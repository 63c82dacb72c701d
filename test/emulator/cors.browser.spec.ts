import { emulatorForBrowser, emulatorStats, resetEmulator } from "../helpers/emulatorClient.js";

// The Karma page (http://localhost:9876) and the emulator (127.0.0.1:<port>) are different
// origins, and every call here carries `authorization` or `x-api-key` plus a JSON content type,
// so Chromium sends a CORS preflight first; a call that resolves proves the preflight passed.
describe("emulator CORS from a browser", () => {
  beforeEach(() => resetEmulator());

  function headers(form: "authorization" | "x-api-key" = "authorization"): Record<string, string> {
    const { apiKey } = emulatorForBrowser();
    return {
      ...(form === "authorization"
        ? { authorization: `Bearer ${apiKey}` }
        : { "x-api-key": apiKey }),
      "content-type": "application/json",
      accept: "application/json",
    };
  }

  async function post(
    path: string,
    body: unknown,
    form?: "authorization" | "x-api-key"
  ): Promise<Response> {
    return fetch(`${emulatorForBrowser().baseUrl}${path}`, {
      method: "POST",
      headers: headers(form),
      body: JSON.stringify(body),
    });
  }

  it("should run a spell in wait mode on the base host", async () => {
    const response = await post("/spells/start", {
      spellId: "summarize",
      wait: true,
      inputs: { text: "One. Two." },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outputs: { summary: "One.", words: 2 } });
    expect((await emulatorStats()).runsCreated).toBe(1);
  });

  it("should poll a run on the poll host with either header form", async () => {
    const started = await post(
      "/spells/start",
      { spellId: "echo", wait: "false", inputs: { a: 1 } },
      "x-api-key"
    );
    const { runId } = (await started.json()) as { runId: string };
    const { pollBaseUrl } = emulatorForBrowser();
    let body: { state?: string; outputs?: unknown } = {};
    for (let poll = 0; poll < 100 && body.state !== "success"; poll++) {
      const response = await fetch(
        `${pollBaseUrl}/spells/getRun?runId=${encodeURIComponent(runId)}`,
        {
          headers: headers(poll % 2 === 0 ? "authorization" : "x-api-key"),
        }
      );
      expect(response.status).toBe(200);
      body = await response.json();
      if (body.state !== "success") await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(body).toEqual({ state: "success", outputs: { a: 1 } });
  });

  it("should start, read and cancel a bulk run", async () => {
    const started = await post("/spells/bulkStart", {
      spellId: "sleep",
      inputs: [{ ms: 60_000 }, { ms: 60_000 }],
    });
    const { runId: groupId } = (await started.json()) as { runId: string };
    const runs = await post("/spells/getBulkRuns", { groupId });
    expect(((await runs.json()) as { runs: unknown[] }).runs.length).toBe(2);
    const cancelled = await post("/spells/cancelBulk", { groupId });
    expect(await cancelled.json()).toEqual({ groupId, cancelled: 2 });
    expect((await emulatorStats()).requests.cancelBulk).toBe(1);
  });

  it("should let the page read error bodies and the Retry-After header", async () => {
    await resetEmulator({ rate429: 1, retryAfterSeconds: 2 });
    const limited = await post("/spells/start", { spellId: "echo", wait: false, inputs: {} });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(((await limited.json()) as { code: string }).code).toBe("rate_limited");
    const denied = await fetch(`${emulatorForBrowser().pollBaseUrl}/spells/getRun?runId=x`, {
      headers: { authorization: "Bearer wrong" },
    });
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { code: string }).code).toBe("unauthorized");
  });
});
