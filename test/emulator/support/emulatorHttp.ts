import { request } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { RunningEmulator } from "../../../emulator/startEmulator.js";

/** Every field a Spell or emulator response body may have, for reading in specs. */
export interface ResponseBody {
  statusCode?: number;
  error?: string;
  code?: string;
  message?: string;
  runId?: string | number;
  groupId?: string;
  cancelled?: number;
  state?: string;
  outputs?: Record<string, unknown>;
  runs?: { state: string; outputs: Record<string, unknown>; [extra: string]: unknown }[];
  [extra: string]: unknown;
}

/** A response read to the end. */
export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: ResponseBody;
}

/** Options of {@link httpRequest}. */
export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is (malformed JSON, big bodies); anything else as JSON. */
  body?: unknown;
}

/**
 * One HTTP request over a real socket with node:http (no keep-alive, so close() never waits),
 * able to send a body with GET. Rejects when the server drops the connection.
 *
 * @example
 * ```ts
 * const { status, body } = await httpRequest(`${pollBaseUrl}/spells/getRun`, { method: "GET", body: { runId } });
 * ```
 */
export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpResult> {
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) {
    headers["content-length"] = String(Buffer.byteLength(payload));
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
      headers["content-type"] = "application/json";
    }
  }
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? "POST", headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: ResponseBody = {};
          try {
            body = text === "" ? {} : (JSON.parse(text) as ResponseBody);
          } catch {
            body = {};
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
        });
      }
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/**
 * Calls of one emulator's Spell endpoints with the Bearer key, for brevity in specs.
 *
 * @example
 * ```ts
 * const spell = spellApi(emulator);
 * const { body } = await spell.start("echo", { a: 1 }, true);
 * ```
 */
export function spellApi(emulator: RunningEmulator) {
  const auth = { authorization: `Bearer ${emulator.apiKey}` };
  const post = (path: string, body: unknown, headers: Record<string, string> = auth) =>
    httpRequest(`${emulator.baseUrl}${path}`, { body, headers });
  return {
    auth,
    post,
    start: (spellId: string, inputs: unknown, wait?: unknown) =>
      post("/spells/start", wait === undefined ? { spellId, inputs } : { spellId, inputs, wait }),
    getRun: (runId: string | number, headers: Record<string, string> = auth) =>
      httpRequest(`${emulator.pollBaseUrl}/spells/getRun?runId=${encodeURIComponent(runId)}`, {
        method: "GET",
        headers,
      }),
    bulkStart: (spellId: string, inputs: unknown) => post("/spells/bulkStart", { spellId, inputs }),
    getBulkRuns: (groupId: string) => post("/spells/getBulkRuns", { groupId }),
    cancelBulk: (groupId: string) => post("/spells/cancelBulk", { groupId }),
  };
}

/**
 * Polls getRun until the run leaves inProgress (bounded).
 *
 * @example
 * ```ts
 * const finished = await pollUntilFinished(spell, runId);
 * ```
 */
export async function pollUntilFinished(
  spell: ReturnType<typeof spellApi>,
  runId: string | number,
  maxPolls = 200
): Promise<HttpResult> {
  for (let poll = 0; poll < maxPolls; poll++) {
    const result = await spell.getRun(runId);
    if (result.status !== 200 || result.body.state !== "inProgress") return result;
    await sleep(10);
  }
  throw new Error(`run ${runId} still inProgress after ${maxPolls} polls`);
}

/**
 * Resolves after `ms` milliseconds.
 *
 * @example
 * ```ts
 * await sleep(50);
 * ```
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Asserts the emulator's one error shape.
 *
 * @example
 * ```ts
 * expectErrorShape(result, 404, "spell_not_found");
 * ```
 */
export function expectErrorShape(result: HttpResult, status: number, code: string): void {
  expect(result.status).withContext(result.text).toBe(status);
  expect(Object.keys(result.body).sort()).toEqual(["code", "error", "message", "statusCode"]);
  expect(result.body.statusCode).toBe(status);
  expect(result.body.code).toBe(code);
  expect(typeof result.body.error).toBe("string");
  expect(typeof result.body.message).toBe("string");
}
