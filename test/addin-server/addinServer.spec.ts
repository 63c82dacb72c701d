import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import tls from "node:tls";
import type { FastifyInstance } from "fastify";
import { createAddinServer } from "../../addin-server/src/createAddinServer.js";
import type { AddinServerOptions } from "../../addin-server/src/AddinServerOptions.js";
import { waitUntil } from "../core/support/collect.js";
import { httpsRequest } from "./support/httpsRequest.js";
import { startRecordingUpstream, type RecordingUpstream } from "./support/recordingUpstream.js";
import { testCertificate } from "./support/testCertificate.js";

const KEY = "sk-addin-server-secret-0123456789";

/** A folder shaped like dist/addin. */
function builtAddin(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-addin-"));
  writeFileSync(path.join(folder, "taskpane.html"), "<!doctype html><title>Spell Run</title>");
  writeFileSync(path.join(folder, "functions.json"), '{"functions":[]}');
  writeFileSync(path.join(folder, ".env"), "SECRET=1");
  return folder;
}

describe("addin-server (HTTPS, in front of Spell hosts that send no CORS headers)", () => {
  let base: RecordingUpstream;
  let poll: RecordingUpstream;
  let app: FastifyInstance | undefined;
  let logs: string;

  // Making the TLS key (a random prime search) took 0.4 to 1.2 s with the load average at 6,
  // and has a long tail: made once here with room, not inside a spec's 5 s default limit.
  beforeAll(async () => {
    await testCertificate();
  }, 60_000);

  beforeEach(async () => {
    base = await startRecordingUpstream((request) =>
      request.url === "/v1/spells/start"
        ? {
            status: 200,
            body: { outputs: { summary: "short" } },
            headers: { "set-cookie": "session=upstream; Path=/" },
          }
        : { status: 404, body: { error: "Not Found" } }
    );
    poll = await startRecordingUpstream(() => ({
      status: 200,
      body: { state: "success", outputs: { label: "positive" } },
    }));
    logs = "";
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await Promise.all([base.close(), poll.close()]);
  });

  async function serve(overrides: Partial<AddinServerOptions> = {}): Promise<string> {
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    app = await createAddinServer({
      addinDir: builtAddin(),
      serviceBaseUrl: `${base.url}/v1`,
      servicePollBaseUrl: poll.url,
      tls: await testCertificate(),
      logger: { level: "trace", stream: logStream },
      ...overrides,
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    return `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  it("should forward a start to the base host byte for byte, with the key header and without cookies", async () => {
    const server = await serve();
    const body = '{"spellId":"summarize","wait":true,"inputs":{"n":12345678901234567890}}';
    const answer = await httpsRequest(`${server}/spell-api/spells/start`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${KEY}`,
        cookie: "addin-session=1",
        origin: server,
      },
      body,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ outputs: { summary: "short" } });
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(base.requests.length).toBe(1);
    const [forwarded] = base.requests;
    expect(forwarded.method).toBe("POST");
    expect(forwarded.url).toBe("/v1/spells/start");
    expect(forwarded.body).toBe(body);
    expect(forwarded.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(forwarded.headers.cookie).toBeUndefined();
    expect(forwarded.headers.origin).toBeUndefined();
    expect(poll.requests.length).toBe(0);
  });

  it("should forward getRun with its query to the poll host and x-api-key unchanged", async () => {
    const server = await serve();
    const answer = await httpsRequest(`${server}/spell-poll/spells/getRun?runId=run%201`, {
      headers: { "x-api-key": KEY },
    });
    expect(answer.status).toBe(200);
    expect(poll.requests.map((request) => request.url)).toEqual(["/spells/getRun?runId=run%201"]);
    expect(poll.requests[0].headers["x-api-key"]).toBe(KEY);
    expect(base.requests.length).toBe(0);
  });

  it("should refuse every other path, method and host without contacting anything", async () => {
    const server = await serve({ publicHost: "excel-spells.example.com" });
    const host = { host: "excel-spells.example.com" };
    const refused = [
      await httpsRequest(`${server}/spell-api/spells/deleteEverything`, {
        method: "POST",
        headers: host,
      }),
      await httpsRequest(`${server}/spell-api//evil.example/spells/start`, {
        method: "POST",
        headers: host,
      }),
      await httpsRequest(`${server}/spell-api/spells/../../admin`, {
        method: "POST",
        headers: host,
      }),
      await httpsRequest(`${server}/spell-api/spells/start`, { method: "PUT", headers: host }),
      await httpsRequest(`${server}/spell-poll/spells/start`, { method: "POST", headers: host }),
      await httpsRequest(`${server}/spell-api/spells/start`, {
        method: "POST",
        headers: { host: "evil.example", "content-type": "application/json" },
        body: "{}",
      }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 421]);

    // A proxy-style request line naming another host.
    const port = Number(new URL(server).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () =>
        socket.end("GET http://evil.example/spells/getRun HTTP/1.1\r\nHost: evil.example\r\n\r\n")
      );
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 (400|421)/);
    expect(base.requests.length).toBe(0);
    expect(poll.requests.length).toBe(0);

    // The health check answers by address (a load balancer's probe), other hosts or not.
    const health = await httpsRequest(`${server}/healthz`);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
  });

  it("should never write the key into its logs, also when the service cannot be reached", async () => {
    await poll.close(); // the poll host is gone: forwarding fails
    const server = await serve();
    await httpsRequest(`${server}/spell-api/spells/start`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
      body: '{"spellId":"summarize","wait":true,"inputs":{}}',
    });
    const unreachable = await httpsRequest(`${server}/spell-poll/spells/getRun?runId=1`, {
      headers: { "x-api-key": KEY, cookie: `key=${KEY}` },
    });
    expect(unreachable.status).toBe(503);
    expect(JSON.parse(unreachable.body).code).toBe("upstream_unreachable");
    expect(unreachable.body).not.toContain(KEY);
    await httpsRequest(`${server}/spell-api/spells/nothing`, { headers: { authorization: KEY } });
    expect(logs).toContain("/spell-poll/spells/getRun");
    expect(logs).not.toContain(KEY);
  });

  it("should send security headers and a Content-Security-Policy that lets Office frame the pane", async () => {
    const server = await serve();
    const page = await httpsRequest(`${server}/taskpane.html`);
    expect(page.status).toBe(200);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://appsforoffice.microsoft.com");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toMatch(/frame-ancestors 'self' [^;]*https:\/\/\*\.officeapps\.live\.com/);
    // The page reaches the service through this server: its internal addresses are not shown.
    expect(csp).toContain("connect-src 'self' https://appsforoffice.microsoft.com;");
    expect(csp).not.toContain(base.url);
    expect(csp).not.toContain(poll.url);
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    // X-Frame-Options SAMEORIGIN would keep Excel on the web from showing the pane.
    expect(page.headers["x-frame-options"]).toBeUndefined();
    expect(page.headers["cache-control"]).toBe("no-cache");

    const metadata = await httpsRequest(`${server}/functions.json`);
    expect(metadata.headers["access-control-allow-origin"]).toBe("*");
    expect((await httpsRequest(`${server}/.env`)).status).not.toBe(200);
  });

  it("should limit the body size and the time of a request", async () => {
    await base.close();
    base = await startRecordingUpstream(() => "hang");
    const server = await serve({ bodyLimitBytes: 1024, requestTimeoutMs: 400 });
    const tooLarge = await httpsRequest(`${server}/spell-api/spells/bulkStart`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ spellId: "x", inputs: ["y".repeat(2000)] }),
    });
    expect(tooLarge.status).toBe(413);
    expect(base.requests.length).toBe(0);

    const started = Date.now();
    const late = await httpsRequest(`${server}/spell-api/spells/getBulkRuns`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: '{"groupId":"g"}',
    });
    expect(late.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("should let a request in flight finish when it closes, then refuse new connections", async () => {
    await poll.close();
    poll = await startRecordingUpstream(() => ({
      status: 200,
      body: { state: "success", outputs: {} },
      delayMs: 300,
    }));
    const server = await serve();
    const inFlight = httpsRequest(`${server}/spell-poll/spells/getRun?runId=1`, {
      headers: { "x-api-key": KEY },
    });
    // Close once the call is forwarded (the upstream holds its answer 300 ms), not after a pause.
    await waitUntil(() => poll.requests.length === 1, "the forwarded call");
    const closing = app!.close();
    expect((await inFlight).status).toBe(200);
    await closing;
    app = undefined;
    await expectAsync(httpsRequest(`${server}/healthz`)).toBeRejected();
  });

  it("should refuse to start on a folder without a built add-in or a service address that is not http(s)", async () => {
    await expectAsync(
      createAddinServer({
        addinDir: mkdtempSync(path.join(os.tmpdir(), "spellrun-empty-")),
        serviceBaseUrl: base.url,
        servicePollBaseUrl: poll.url,
        logger: false,
      })
    ).toBeRejectedWithError(/taskpane\.html/);
    await expectAsync(
      createAddinServer({
        addinDir: builtAddin(),
        serviceBaseUrl: "ftp://spell.example",
        servicePollBaseUrl: poll.url,
        logger: false,
      })
    ).toBeRejectedWithError(/serviceBaseUrl must be an http\(s\) URL/);
  });
});
