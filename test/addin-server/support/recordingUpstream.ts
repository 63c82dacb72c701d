import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as a Spell host received it. */
export interface UpstreamRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A small Spell host over a real socket that records what reaches it and sends no CORS headers. */
export interface RecordingUpstream {
  url: string;
  requests: UpstreamRequest[];
  close(): Promise<void>;
}

/**
 * Starts a plain node:http service on 127.0.0.1 (port 0) that answers with `answer` and records
 * every request. It never sends `Access-Control-*` headers: a browser calling it directly from
 * another origin is refused the answer.
 *
 * ## Example
 * ```ts
 * const upstream = await startRecordingUpstream(() => ({ status: 200, body: { outputs: {} } }));
 * ```
 */
export async function startRecordingUpstream(
  answer: (
    request: UpstreamRequest
  ) =>
    { status: number; body: unknown; headers?: Record<string, string>; delayMs?: number } | "hang"
): Promise<RecordingUpstream> {
  const requests: UpstreamRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const recorded = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const reply = answer(recorded);
      if (reply === "hang") return;
      const send = () =>
        response
          .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
          .end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
