import https from "node:https";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { publicHostMatcher } from "../../addin-server/src/publicHost.js";
import { headersToService } from "../../addin-server/src/forwardedHeaders.js";
import { httpsRequest } from "./support/httpsRequest.js";
import { startRawUpstream, type RawUpstream } from "./support/rawUpstream.js";
import { serveTestAddin, testAddinFolder, type TestAddinServer } from "./support/serveTestAddin.js";
import { testCertificate } from "./support/testCertificate.js";

const KEY = "sk-addin-server-edge-0123456789";
const JSON_OK = '{"outputs":{"summary":"short"}}';

/** Answers of a service (or of a proxy in front of it) that must never act on the add-in's origin. */
const HOSTILE_HEADERS = {
  "content-security-policy": "default-src *; script-src * 'unsafe-inline'",
  "strict-transport-security": "max-age=0",
  "x-content-type-options": "sniff",
  "clear-site-data": '"*"',
  refresh: "0; url=https://evil.example/",
  "access-control-allow-origin": "*",
  "access-control-allow-credentials": "true",
  "set-cookie": "session=upstream; Path=/",
  location: "https://evil.example/",
  "x-frame-options": "ALLOW-FROM https://evil.example",
  "cache-control": "public, max-age=31536000",
  "x-upstream-secret": "internal-build-42",
  "keep-alive": "timeout=600",
  "retry-after": "7",
};

describe("addin-server at its edges (answer headers, JSON only, limits, hosts)", () => {
  let upstream: RawUpstream | undefined;
  let server: TestAddinServer | undefined;

  beforeAll(async () => {
    await testCertificate();
  }, 60_000);
  afterEach(async () => {
    await server?.app.close();
    await upstream?.close();
    server = undefined;
    upstream = undefined;
  });

  async function serveWith(
    answer: Parameters<typeof startRawUpstream>[0],
    options: Partial<Parameters<typeof serveTestAddin>[0]> = {}
  ): Promise<string> {
    upstream = await startRawUpstream(answer);
    server = await serveTestAddin({
      serviceBaseUrl: upstream.url,
      servicePollBaseUrl: upstream.url,
      ...options,
    });
    return server.url;
  }

  const start = (url: string, headers: Record<string, string> = {}) =>
    httpsRequest(`${url}/spell-api/spells/start`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY, ...headers },
      body: '{"spellId":"s","inputs":{}}',
    });

  it("should pass on only content-type and retry-after of the service's headers and keep its own security headers", async () => {
    const url = await serveWith((response) =>
      response
        .writeHead(429, { ...HOSTILE_HEADERS, "content-type": "application/json; charset=utf-8" })
        .end('{"error":"Too Many Requests"}')
    );
    const answer = await start(url);
    expect(answer.status).toBe(429);
    expect(answer.body).toBe('{"error":"Too Many Requests"}');
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["retry-after"]).toBe("7");
    expect(answer.headers["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox"
    );
    expect(answer.headers["strict-transport-security"]).toMatch(/max-age=[1-9]\d*/);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
    expect(answer.headers["cache-control"]).toBe("no-store");
    for (const name of [
      "clear-site-data",
      "refresh",
      "access-control-allow-origin",
      "access-control-allow-credentials",
      "set-cookie",
      "location",
      "x-upstream-secret",
      "keep-alive",
    ]) {
      expect(answer.headers[name]).withContext(name).toBeUndefined();
    }
  });

  it("should turn an answer that is not JSON into a JSON 502 that names the type, never the page", async () => {
    const url = await serveWith((response) =>
      response
        .writeHead(500, { "content-type": "text/html" })
        .end("<html><script>steal()</script></html>")
    );
    const answer = await httpsRequest(`${url}/spell-poll/spells/getRun?runId=1`, {
      headers: { "x-api-key": KEY },
    });
    expect(answer.status).toBe(502);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.headers["content-security-policy"]).toContain("sandbox");
    const body = JSON.parse(answer.body) as { code: string; message: string };
    expect(body.code).toBe("upstream_not_json");
    expect(body.message).toContain("HTTP 500 with text/html");
    expect(answer.body).not.toContain("script");

    // A body without any type is not passed on either; an empty answer is.
    await upstream!.close();
    let empty = false;
    upstream = await startRawUpstream((response) =>
      empty ? response.writeHead(204).end() : response.writeHead(200).end("plain")
    );
    await server!.app.close();
    server = await serveTestAddin({
      serviceBaseUrl: upstream.url,
      servicePollBaseUrl: upstream.url,
    });
    expect((await start(server.url)).status).toBe(502);
    empty = true;
    const noContent = await start(server.url);
    expect(noContent.status).toBe(204);
    expect(noContent.body).toBe("");
  });

  it("should not forward a forwarded path opened as a page, nor a call without a key", async () => {
    const url = await serveWith((response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON_OK)
    );
    const page = await httpsRequest(`${url}/spell-poll/spells/getRun?runId=1`, {
      headers: { "x-api-key": KEY, "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    expect(page.status).toBe(400);
    expect(JSON.parse(page.body).code).toBe("not_a_page");
    const noKey = await httpsRequest(`${url}/spell-api/spells/start`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(noKey.status).toBe(401);
    expect(noKey.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(noKey.body).code).toBe("missing_credentials");
    expect(upstream!.requests.length).toBe(0);
    // With a key (either header) the same call goes through.
    expect((await start(url, {})).status).toBe(200);
    expect((await start(url, { "x-api-key": "", authorization: `Bearer ${KEY}` })).status).toBe(
      200
    );
    expect(upstream!.requests.length).toBe(2);
  });

  it("should forward each endpoint with its own method only, and a query to getRun only", async () => {
    const url = await serveWith((response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON_OK)
    );
    const head = await httpsRequest(`${url}/spell-poll/spells/getRun?runId=1`, {
      method: "HEAD",
      headers: { "x-api-key": KEY },
    });
    expect(head.status).toBe(404);
    expect(upstream!.requests.length).toBe(0);
    await httpsRequest(`${url}/spell-api/spells/start?admin=1`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: "{}",
    });
    await httpsRequest(`${url}/spell-poll/spells/getRun?runId=r%201`, {
      headers: { "x-api-key": KEY },
    });
    expect(upstream!.requests.map(({ method, url: path }) => `${method} ${path}`)).toEqual([
      "POST /spells/start",
      "GET /spells/getRun?runId=r%201",
    ]);
  });

  it("should ask for an unencoded answer and unpack one that comes encoded anyway, within the answer limit", async () => {
    const encodings: (string | undefined)[] = [];
    let next: { encoding: string; body: Buffer } = { encoding: "gzip", body: gzipSync(JSON_OK) };
    const url = await serveWith(
      (response) =>
        response
          .writeHead(200, { "content-type": "application/json", "content-encoding": next.encoding })
          .end(next.body),
      { answerLimitBytes: 64 * 1024 }
    );
    const gzipped = await start(url, { "accept-encoding": "gzip, br" });
    encodings.push(upstream!.requests[0].headers["accept-encoding"]);
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers["content-encoding"]).toBeUndefined();
    expect(gzipped.body).toBe(JSON_OK);
    next = { encoding: "br", body: brotliCompressSync(JSON_OK) };
    expect((await start(url)).body).toBe(JSON_OK);
    // A small body that unpacks past the answer limit, and an encoding nobody knows: 502.
    next = { encoding: "gzip", body: gzipSync(`"${" ".repeat(1024 * 1024)}"`) };
    const bomb = await start(url);
    expect(bomb.status).toBe(502);
    expect(JSON.parse(bomb.body).code).toBe("upstream_too_large");
    next = { encoding: "x-mystery", body: Buffer.from(JSON_OK) };
    expect(JSON.parse((await start(url)).body).code).toBe("upstream_bad_encoding");
    expect(encodings).toEqual(["identity"]);
  });

  it("should strip client forwarding, proxy and hop-by-hop headers before forwarding", async () => {
    const url = await serveWith((response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON_OK)
    );
    const answer = await start(url, {
      "x-forwarded-for": "10.0.0.1",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "http",
      forwarded: "for=10.0.0.1;host=evil.example",
      "x-real-ip": "10.0.0.2",
      "proxy-authorization": "Basic c2VjcmV0",
      "x-original-url": "/admin",
      "x-rewrite-url": "/admin",
      connection: "keep-alive, x-hop-secret",
      "x-hop-secret": "1",
      te: "trailers",
      "accept-language": "de-CH",
    });
    expect(answer.status).toBe(200);
    const [forwarded] = upstream!.requests;
    for (const name of [
      "x-forwarded-for",
      "x-forwarded-host",
      "x-forwarded-proto",
      "forwarded",
      "x-real-ip",
      "proxy-authorization",
      "x-original-url",
      "x-rewrite-url",
      "x-hop-secret",
      "te",
    ]) {
      expect(forwarded.headers[name]).withContext(name).toBeUndefined();
    }
    expect(forwarded.headers["x-api-key"]).toBe(KEY);
    expect(forwarded.headers["accept-language"]).toBe("de-CH");
    expect(forwarded.headers.host).toBe(new URL(upstream!.url).host);
    // The same rule, by itself: a header the Connection header names is hop-by-hop.
    expect(headersToService({ connection: "X-Custom", "x-custom": "1", accept: "*/*" })).toEqual({
      accept: "*/*",
    });
  });

  it("should cut a service that drips its answer at the total time limit", async () => {
    let drip: NodeJS.Timeout | undefined;
    const url = await serveWith(
      (response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.write("[");
        drip = setInterval(() => response.write(" "), 50);
        response.on("close", () => clearInterval(drip));
      },
      { requestTimeoutMs: 600 }
    );
    const started = Date.now();
    const answer = await start(url);
    const elapsed = Date.now() - started;
    clearInterval(drip);
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body).code).toBe("upstream_timeout");
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("should cut a client that sends its body slowly at the total receive limit", async () => {
    const url = await serveWith(
      (response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON_OK),
      { receiveTimeoutMs: 500 }
    );
    const started = Date.now();
    const outcome = await new Promise<string>((resolve) => {
      const request = https.request(`${url}/spell-api/spells/start`, {
        method: "POST",
        rejectUnauthorized: false,
        agent: false,
        headers: { "content-type": "application/json", "x-api-key": KEY, "content-length": "200" },
      });
      const drip = setInterval(() => request.write(" "), 50);
      request.on("response", (response) => {
        clearInterval(drip);
        resolve(String(response.statusCode));
        response.resume();
      });
      request.on("error", () => {
        clearInterval(drip);
        resolve("closed");
      });
    });
    const elapsed = Date.now() - started;
    expect(["408", "closed"]).toContain(outcome);
    expect(elapsed).toBeLessThan(3_000);
    expect(upstream!.requests.length).toBe(0);
  });

  it("should answer Expect: 100-continue itself and forward a body over 1 MiB", async () => {
    const url = await serveWith((response, body) =>
      response.writeHead(200, { "content-type": "application/json" }).end(`{"size":${body.length}}`)
    );
    const body = Buffer.from(JSON.stringify({ spellId: "s", inputs: ["x".repeat(1_500_000)] }));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = https.request(`${url}/spell-api/spells/bulkStart`, {
        method: "POST",
        rejectUnauthorized: false,
        agent: false,
        headers: {
          "content-type": "application/json",
          "x-api-key": KEY,
          "content-length": String(body.length),
          expect: "100-continue",
        },
      });
      request.on("continue", () => request.end(body));
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on("error", reject);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ size: body.length });
    expect(upstream!.requests[0].headers.expect).toBeUndefined();
  });

  it("should answer its public host on a port other than 443, and only that host", async () => {
    const url = await serveWith(
      (response) => response.writeHead(200, { "content-type": "application/json" }).end(JSON_OK),
      { publicHost: "excel-spells.example.com:8443" }
    );
    const page = (host: string) => httpsRequest(`${url}/taskpane.html`, { headers: { host } });
    expect((await page("excel-spells.example.com:8443")).status).toBe(200);
    expect((await page("EXCEL-SPELLS.example.com.:8443")).status).toBe(200);
    expect((await page("excel-spells.example.com")).status).toBe(421);
    expect((await page("evil.example:8443")).status).toBe(421);

    const byName = publicHostMatcher("excel-spells.example.com");
    expect(byName("excel-spells.example.com:8443")).toBeTrue();
    expect(byName("excel-spells.example.com")).toBeTrue();
    expect(byName("excel-spells.example.com.evil.example")).toBeFalse();
    expect(
      publicHostMatcher("excel-spells.example.com:443")("excel-spells.example.com")
    ).toBeTrue();
    expect(publicHostMatcher("[::1]:8443")("[::1]:8443")).toBeTrue();
    expect(() => publicHostMatcher("https://excel-spells.example.com/")).toThrowError(/host name/);
  });

  it("should cache hashed scripts for good, revalidate pages, send pre-compressed files and the configured frame-ancestors", async () => {
    const script = "console.log('spell run');".repeat(50);
    upstream = await startRawUpstream((response) => response.end());
    server = await serveTestAddin({
      serviceBaseUrl: upstream.url,
      servicePollBaseUrl: upstream.url,
      connectSources: ["https://spell.example.com"],
      frameAncestors: ["https://*.officeapps.live.us"],
      addinDir: testAddinFolder({
        "taskpane.0123456789abcdef0123.js": script,
        "taskpane.0123456789abcdef0123.js.gz": gzipSync(script),
      }),
    });
    const hashed = await httpsRequest(`${server.url}/taskpane.0123456789abcdef0123.js`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(hashed.status).toBe(200);
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers["content-encoding"]).toBe("gzip");
    expect(hashed.headers.vary).toMatch(/accept-encoding/i);
    const plain = await httpsRequest(`${server.url}/taskpane.0123456789abcdef0123.js`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(script);
    const page = await httpsRequest(`${server.url}/taskpane.html`);
    expect(page.headers["cache-control"]).toBe("no-cache");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("frame-ancestors 'self' https://*.officeapps.live.us");
    expect(csp).not.toContain("office.com");
    expect(csp).toContain(
      "connect-src 'self' https://appsforoffice.microsoft.com https://spell.example.com"
    );
    expect(csp).not.toContain(upstream.url);
  });
});
