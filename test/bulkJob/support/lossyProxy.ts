import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the proxy loses the answer of a bulkStart after the service behind it created the group:
 * an HTTP status instead of the answer, `"hang"` (no answer: the client times out) or `"drop"`
 * (the connection closes without a word).
 */
export type LostAnswer = { status: number } | "hang" | "drop";

/** A proxy in front of the emulator's base host. */
export interface LossyProxy {
  baseUrl: string;
  /** bulkStarts the proxy forwarded (each created a group). */
  readonly bulkStarts: number;
  close(): Promise<void>;
}

/**
 * A hostile node:http proxy on port 0 in front of a Spell service: every request goes through
 * unchanged, except that the answers of the first `lose` bulkStarts are lost the way `lost` says,
 * after the service behind has created their groups (the dangerous case for a client that
 * sends a start again).
 *
 * ## Example
 * ```ts
 * const proxy = await startLossyProxy(emulator.baseUrl, { status: 500 }, 1);
 * ```
 * @param target the service's base URL
 * @param lost how the answer is lost
 * @param lose how many bulkStart answers to lose
 * @param pass how many bulkStart answers to let through before losing any
 * @return the running proxy
 */
export async function startLossyProxy(
  target: string,
  lost: LostAnswer,
  lose = 1,
  pass = 0
): Promise<LossyProxy> {
  let bulkStarts = 0;
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "connection") {
          headers[name] = value;
        }
      }
      const isBulkStart = (request.url ?? "").endsWith("/bulkStart");
      // node:http, not the global fetch, which other specs of the same process may replace.
      const forward = httpRequest(
        `${target}${request.url ?? ""}`,
        { method: request.method, headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => body.push(chunk));
          answer.on("end", () => {
            const status = answer.statusCode ?? 502;
            const nth = isBulkStart && status < 300 ? bulkStarts++ : -1;
            if (nth >= pass && nth < pass + lose) {
              if (lost === "drop") return void response.socket?.destroy();
              if (lost === "hang") return void hanging.add(response);
              response.writeHead(lost.status, { "content-type": "application/json" });
              return void response.end(JSON.stringify({ error: "lost" }));
            }
            response.writeHead(status, {
              "content-type": answer.headers["content-type"] ?? "application/json",
            });
            response.end(Buffer.concat(body));
          });
        }
      );
      forward.on("error", () => response.socket?.destroy());
      forward.end(request.method === "GET" ? undefined : Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get bulkStarts() {
      return bulkStarts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
