import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

/** A request as the fake service received it. */
export interface SpellServiceRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** The fake Spell service: its two hosts over plain HTTP, and the base host over HTTPS too. */
export interface FakeSpellService {
  baseUrl: string;
  pollBaseUrl: string;
  /** The base host over HTTPS (for a page calling it directly). */
  httpsBaseUrl: string;
  requests: SpellServiceRequest[];
  close(): Promise<void>;
}

/**
 * A small Spell service over real sockets that sends no CORS headers (so a browser calling it
 * from another origin is refused its answers): `summarize` (first sentence) in wait and polling
 * mode, bulk runs, cancelBulk; every request needs the key (`Bearer` or `x-api-key`), else 401;
 * unknown runs and groups are a JSON 404.
 *
 * ## Example
 * ```ts
 * const service = await startFakeSpellService("sk-…", await testCertificate());
 * ```
 */
export async function startFakeSpellService(
  apiKey: string,
  tls: { key: Buffer; cert: Buffer }
): Promise<FakeSpellService> {
  const requests: SpellServiceRequest[] = [];
  const runs = new Map<string, Record<string, unknown>>();
  const groups = new Map<string, Record<string, unknown>[]>();
  let next = 1;
  const summarize = (inputs: Record<string, unknown>) => ({
    summary: String(inputs.text ?? "")
      .split(". ")[0]
      .replace(/\.?$/, "."),
  });

  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
      });
      const send = (status: number, body: unknown) =>
        response
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify(body));
      const key =
        request.headers["x-api-key"] ?? request.headers.authorization?.replace(/^Bearer /, "");
      if (key !== apiKey)
        return send(401, { statusCode: 401, error: "Unauthorized", message: "Bad key" });
      const url = new URL(request.url ?? "/", "http://service");
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
      switch (`${request.method} ${url.pathname}`) {
        case "POST /spells/start": {
          const outputs = summarize(body.inputs ?? {});
          if (body.wait === true || body.wait === "true") return send(200, { outputs });
          const runId = `run-${next++}`;
          runs.set(runId, outputs);
          return send(200, { runId });
        }
        case "GET /spells/getRun": {
          const outputs = runs.get(url.searchParams.get("runId") ?? "");
          return outputs
            ? send(200, { state: "success", outputs })
            : send(404, { statusCode: 404, error: "Not Found", message: "No such run" });
        }
        case "POST /spells/bulkStart": {
          const groupId = `bulk-${next++}`;
          groups.set(groupId, (body.inputs as Record<string, unknown>[]).map(summarize));
          return send(200, { runId: groupId });
        }
        case "POST /spells/getBulkRuns": {
          const outputs = groups.get(body.groupId);
          return outputs
            ? send(200, { runs: outputs.map((o) => ({ state: "success", outputs: o })) })
            : send(404, { statusCode: 404, error: "Not Found", message: "No such group" });
        }
        case "POST /spells/cancelBulk":
          return send(200, {});
        default:
          return send(404, { statusCode: 404, error: "Not Found", message: "No such endpoint" });
      }
    });
  };

  const servers = [
    http.createServer(handle),
    http.createServer(handle),
    https.createServer(tls, handle),
  ];
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
  );
  const port = (index: number) => (servers[index].address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port(0)}`,
    pollBaseUrl: `http://127.0.0.1:${port(1)}`,
    httpsBaseUrl: `https://127.0.0.1:${port(2)}`,
    requests,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            })
        )
      ).then(() => undefined),
  };
}
