import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the scripted service saw it. */
export interface ScriptedRequest {
  method: string;
  /** The last path segment: "start", "getRun", "getBulkRuns"… */
  endpoint: string;
  query: URLSearchParams;
  body: unknown;
}

/** What the script answers: a status and a JSON body (a string is sent as is). */
export interface ScriptedAnswer {
  status?: number;
  body: unknown;
  /** Extra response headers (a redirect's Location...). */
  headers?: Record<string, string>;
}

/**
 * An answer, or a hostile way of not giving one: `"hang"` never answers (the connection stays
 * open), `"trickle"` sends 200 headers and `{`, then a space every 50 ms, never ending the body,
 * `"drop"` closes the connection without a word.
 */
export type ScriptedReply = ScriptedAnswer | "hang" | "trickle" | "drop";

/** A running scripted service; base and poll URLs point at the same small server. */
export interface ScriptedService {
  baseUrl: string;
  pollBaseUrl: string;
  /** Every request, in the order they arrived (before the script answered). */
  requests: ScriptedRequest[];
  /** Requests whose connection is open now (answered or not). */
  readonly open: number;
  /** The most requests open at once so far. */
  readonly peakOpen: number;
  close(): Promise<void>;
}

/**
 * A small hand-written Spell service over node:http on port 0 (not the emulator), answering
 * whatever the script says: wrong state strings, groups that never fill up, answers that come
 * late (a promise), never (`"hang"`) or byte by byte (`"trickle"`). Specs use it to meet services
 * we did not write.
 *
 * @example
 * ```ts
 * const service = await startScriptedService((request) => ({ body: { state: "SUCCESS", outputs: {} } }));
 * ```
 */
export async function startScriptedService(
  script: (request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>
): Promise<ScriptedService> {
  const requests: ScriptedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  let peakOpen = 0;
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    open++;
    peakOpen = Math.max(peakOpen, open);
    response.on("close", () => open--);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://localhost");
      const text = Buffer.concat(chunks).toString();
      const request: ScriptedRequest = {
        method: incoming.method ?? "GET",
        endpoint: url.pathname.split("/").pop() ?? "",
        query: url.searchParams,
        body: text === "" ? undefined : (JSON.parse(text) as unknown),
      };
      requests.push(request);
      void Promise.resolve(script(request)).then((reply) => {
        if (reply === "hang" || response.destroyed) return;
        if (reply === "drop") {
          incoming.socket.destroy();
          return;
        }
        if (reply === "trickle") {
          response.writeHead(200, { "content-type": "application/json" });
          response.write("{");
          const timer = setInterval(() => response.write(" "), 50);
          timers.add(timer);
          response.on("close", () => {
            clearInterval(timer);
            timers.delete(timer);
          });
          return;
        }
        const payload = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        response.writeHead(reply.status ?? 200, {
          "content-type": "application/json",
          ...reply.headers,
        });
        response.end(payload);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    baseUrl: url,
    pollBaseUrl: url,
    requests,
    get open() {
      return open;
    },
    get peakOpen() {
      return peakOpen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A promise of `reply` after `ms`: an answer that comes late. */
export function later(ms: number, reply: ScriptedReply): Promise<ScriptedReply> {
  return new Promise((resolve) => setTimeout(() => resolve(reply), ms));
}
