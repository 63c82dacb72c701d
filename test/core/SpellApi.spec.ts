import { firstValueFrom, lastValueFrom } from "rxjs";
import { SpellApi } from "../../src/http/SpellApi.js";
import { SpellBulkApi } from "../../src/http/SpellBulkApi.js";
import {
  SpellError,
  SpellHttpError,
  SpellNetworkError,
  SpellProtocolError,
} from "../../src/index.js";

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records requests and answers from a list (status, body, headers). */
function fakeFetch(answers: Array<[number, unknown, Record<string, string>?]>) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    const [status, body, headers] = answers[Math.min(sent.length - 1, answers.length - 1)];
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status, headers });
  }) as unknown as typeof fetch;
  return { fetchFn, sent };
}

const key = "sk-test-secret";
const connection = { apiKey: key, baseUrl: "http://base.test/", pollBaseUrl: "http://poll.test" };

describe("SpellApi", () => {
  it("should send getRun to the poll host with the run id URL-encoded, whatever its type", async () => {
    const { fetchFn, sent } = fakeFetch([[200, { state: "inProgress", outputs: {} }]]);
    const api = new SpellApi({ ...connection, fetch: fetchFn });
    await firstValueFrom(api.getRun("a b/c?d=1&e"));
    await firstValueFrom(api.getRun(12345));
    expect(sent[0].url).toBe("http://poll.test/spells/getRun?runId=a%20b%2Fc%3Fd%3D1%26e");
    expect(sent[1].url).toBe("http://poll.test/spells/getRun?runId=12345");
    expect(sent[0].init.method).toBe("GET");
    expect(sent[0].init.body).toBeUndefined();
    expect((sent[0].init.headers as Record<string, string>)["Content-Type"]).toBeUndefined();
  });

  it("should name a start with one Idempotency-Key kept across its retries when asked, and send none otherwise", async () => {
    const { fetchFn, sent } = fakeFetch([
      [503, { error: "busy" }],
      [200, { runId: "r1" }],
      [200, { runId: "r2" }],
      [200, { runId: "g1" }],
      [200, { state: "success", outputs: {} }],
    ]);
    const api = new SpellBulkApi({
      ...connection,
      fetch: fetchFn,
      idempotencyKeys: true,
      retry: { baseDelayMs: 1, jitter: 0 },
    });
    await firstValueFrom(api.startPolling("echo", {}));
    await firstValueFrom(api.startPolling("echo", {}));
    await firstValueFrom(api.bulkStartOnce("echo", [{}]));
    await firstValueFrom(api.getRun("r1"));
    const keys = sent.map(
      (request) => (request.init.headers as Record<string, string>)["Idempotency-Key"]
    );
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys.slice(1, 4)).size).toBe(3);
    expect(keys[4]).toBeUndefined();
    const plain = fakeFetch([[200, { runId: "r1" }]]);
    await firstValueFrom(
      new SpellApi({ ...connection, fetch: plain.fetchFn }).startPolling("echo", {})
    );
    expect(Object.keys(plain.sent[0].init.headers as object)).not.toContain("Idempotency-Key");
  });

  it("should POST JSON to the base host with a Bearer key, or x-api-key when asked", async () => {
    const { fetchFn, sent } = fakeFetch([[200, { runId: "r1" }]]);
    await firstValueFrom(
      new SpellApi({ ...connection, fetch: fetchFn }).startPolling("echo", { a: 1 })
    );
    await firstValueFrom(
      new SpellApi({ ...connection, fetch: fetchFn, authHeader: "x-api-key" }).startPolling(
        "echo",
        {}
      )
    );
    expect(sent[0].url).toBe("http://base.test/spells/start");
    expect(JSON.parse(sent[0].init.body as string)).toEqual({
      spellId: "echo",
      wait: false,
      inputs: { a: 1 },
    });
    expect(sent[0].init.headers).toEqual(
      jasmine.objectContaining({
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        Accept: "application/json",
      })
    );
    expect(sent[1].init.headers).toEqual(jasmine.objectContaining({ "x-api-key": key }));
    expect((sent[1].init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("should accept numeric and string run ids and ignore extra fields", async () => {
    const { fetchFn } = fakeFetch([
      [200, { runId: 7, extra: true }],
      [200, { runId: "r-8", more: [1] }],
    ]);
    const api = new SpellApi({ ...connection, fetch: fetchFn });
    expect(await firstValueFrom(api.startPolling("echo", {}))).toBe(7);
    expect(await firstValueFrom(api.startPolling("echo", {}))).toBe("r-8");
  });

  it("should reject malformed bodies with a SpellProtocolError naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, '"runId" missing'],
      [{ runId: "" }, '"runId" must be'],
      [{ runId: { id: 1 } }, '"runId" must be'],
      ["<html>", "not JSON"],
    ];
    for (const [body, problem] of cases) {
      const { fetchFn } = fakeFetch([[200, body]]);
      const error = await lastValueFrom(
        new SpellApi({ ...connection, fetch: fetchFn }).startPolling("x", {})
      ).catch((e: unknown) => e);
      expect(error).withContext(JSON.stringify(body)).toBeInstanceOf(SpellProtocolError);
      expect((error as Error).message).toContain(problem);
      // The request that got the body, missing field or not JSON alike (never the key).
      expect((error as SpellProtocolError).url).toBe("http://base.test/spells/start");
    }
    const reads: Array<[unknown, string]> = [
      [{ outputs: {} }, '"state" must be a string'],
      [{ state: "success" }, '"outputs" missing for a success'],
      [{ state: "success", outputs: [1] }, '"outputs" must be an object'],
    ];
    for (const [body, problem] of reads) {
      const { fetchFn } = fakeFetch([[200, body]]);
      const error = await lastValueFrom(
        new SpellApi({ ...connection, fetch: fetchFn }).getRun(1)
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpellProtocolError);
      expect((error as Error).message).toContain(problem);
      expect((error as SpellProtocolError).url).toBe("http://poll.test/spells/getRun?runId=1");
    }
    const { fetchFn } = fakeFetch([[200, { runs: "nope" }]]);
    const error = await lastValueFrom(
      new SpellBulkApi({ ...connection, fetch: fetchFn }).getBulkRuns("g")
    ).catch((e: unknown) => e);
    expect((error as Error).message).toContain('"runs" must be an array');
    expect((error as SpellProtocolError).url).toBe("http://base.test/spells/getBulkRuns");
  });

  it("should turn a non-2xx answer into SpellHttpError with status, parsed body, method, endpoint and Retry-After", async () => {
    const body = {
      statusCode: 429,
      error: "Too Many Requests",
      code: "rate_limited",
      message: "slow down",
    };
    const { fetchFn } = fakeFetch([[429, body, { "retry-after": "3" }]]);
    const api = new SpellBulkApi({ ...connection, fetch: fetchFn, retry: { limit: 0 } });
    const error = (await lastValueFrom(api.bulkStartOnce("echo", [{}])).catch(
      (e: unknown) => e
    )) as SpellHttpError;
    expect(error).toBeInstanceOf(SpellHttpError);
    expect(error.name).toBe("SpellHttpError");
    expect([error.status, error.method, error.endpoint, error.retryAfterMs]).toEqual([
      429,
      "POST",
      "bulkStart",
      3000,
    ]);
    expect(error.body).toEqual(body);
    expect(error.message).toBe("POST /spells/bulkStart failed with HTTP 429: slow down");
  });

  it("should never put the API key in an error, even when the service echoes it", async () => {
    const { fetchFn } = fakeFetch([[401, { message: `Invalid key ${key}` }]]);
    const error = (await lastValueFrom(
      new SpellApi({ ...connection, fetch: fetchFn }).getRun(1)
    ).catch((e: unknown) => e)) as SpellHttpError;
    expect(error.message).not.toContain(key);
    expect(JSON.stringify(error.body)).not.toContain(key);
    expect(error.message).toContain("[redacted]");
  });

  it("should abort the fetch on unsubscribe, but not a fetch that already answered", async () => {
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const hanging = ((_url: string, init: RequestInit) => {
      signals.push(init.signal as AbortSignal);
      return new Promise<Response>((resolve, reject) => {
        release = () => resolve(new Response(JSON.stringify({ state: "success", outputs: {} })));
        init.signal?.addEventListener("abort", () =>
          reject(new DOMException("aborted", "AbortError"))
        );
      });
    }) as unknown as typeof fetch;
    const api = new SpellApi({ ...connection, fetch: hanging });
    const subscription = api.getRun(1).subscribe();
    await Promise.resolve();
    subscription.unsubscribe();
    expect(signals[0].aborted).toBeTrue();

    const answered = api.getRun(2);
    const done = firstValueFrom(answered);
    await Promise.resolve();
    release();
    await done;
    expect(signals[1].aborted).toBeFalse();
  });

  it("should send nothing before subscribe", () => {
    const { fetchFn, sent } = fakeFetch([[200, {}]]);
    const api = new SpellBulkApi({ ...connection, fetch: fetchFn });
    api.startPolling("echo", {});
    api.bulkStartOnce("echo", []);
    api.getRun(1);
    expect(sent).toEqual([]);
  });

  it("should report a failed fetch as SpellNetworkError naming method and endpoint", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    const api = new SpellApi({ ...connection, fetch: failing });
    const error = (await lastValueFrom(api.startPolling("echo", {})).catch(
      (e: unknown) => e
    )) as SpellNetworkError;
    expect(error).toBeInstanceOf(SpellNetworkError);
    expect(error.connectionRefused).toBeFalse();
    expect(error.message).toBe("POST /spells/start failed: Failed to fetch");
  });

  it("should require an API key", () => {
    expect(() => new SpellApi({ ...connection, apiKey: "" })).toThrowError(SpellError);
  });
});
