import https from "node:https";

/** An answer as the spec's client saw it. */
export interface SeenAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTPS request to a server with a throw-away certificate (not verified), over a new
 * connection each time.
 *
 * ## Example
 * ```ts
 * const answer = await httpsRequest(`${server}/healthz`);
 * ```
 */
export function httpsRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {}
): Promise<SeenAnswer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: options.method ?? "GET",
        headers: options.headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          })
        );
      }
    );
    request.on("error", reject);
    request.end(options.body);
  });
}
