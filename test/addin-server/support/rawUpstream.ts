import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A Spell host of a spec that answers with whatever bytes and headers the spec writes. */
export interface RawUpstream {
  url: string;
  /** What reached it: method, path, headers, body. */
  requests: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }[];
  close(): Promise<void>;
}

/**
 * Starts a plain node:http host on 127.0.0.1 (port 0) that records each whole request and then
 * hands the raw response to `answer`, which may send any status, headers and body, slowly or
 * never.
 *
 * ## Example
 * ```ts
 * const upstream = await startRawUpstream((response) => response.writeHead(500, { "content-type": "text/html" }).end("<h1>down</h1>"));
 * ```
 */
export async function startRawUpstream(
  answer: (response: ServerResponse, body: Buffer) => void
): Promise<RawUpstream> {
  const requests: RawUpstream["requests"] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body,
      });
      answer(response, body);
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
