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

/** A running scripted service; base and poll URLs point at the same small server. */
export interface ScriptedService {
  baseUrl: string;
  pollBaseUrl: string;
  requests: ScriptedRequest[];
  close(): Promise<void>;
}

/**
 * A small hand-written Spell service over node:http on port 0 (not the emulator), answering
 * whatever the script says: wrong state strings, groups that never fill up. Specs use it to meet
 * services we did not write.
 *
 * @example
 * ```ts
 * const service = await startScriptedService((request) => ({ body: { state: "SUCCESS", outputs: {} } }));
 * ```
 */
export async function startScriptedService(
  script: (request: ScriptedRequest) => ScriptedAnswer
): Promise<ScriptedService> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
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
      const answer = script(request);
      const payload = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status ?? 200, {
        "content-type": "application/json",
        ...answer.headers,
      });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    baseUrl: url,
    pollBaseUrl: url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
