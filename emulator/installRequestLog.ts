import type { FastifyInstance, FastifyRequest } from "fastify";

/** The run or group id a request names or its answer gives, kept until the answer is logged. */
const idsByRequest = new WeakMap<FastifyRequest, string>();

/**
 * One readable line per request: time, host, method, path with its query, status, duration and
 * the run or group id, e.g.
 * `12:00:01.250 base POST /spells/bulkStart 200 3 ms group=bulk_1_9f2c`.
 * Never a header, so never the key; no body.
 *
 * @example
 * ```ts
 * formatRequestLine({ at: new Date(), host: "poll", method: "GET", url: "/spells/getRun?runId=run_1", status: 200, ms: 1.2 });
 * ```
 * @param request what happened
 * @returns the line, without a line break
 */
export function formatRequestLine(request: {
  at: Date;
  host: "base" | "poll";
  method: string;
  url: string;
  status: number;
  ms: number;
  id?: string;
}): string {
  const time = request.at.toISOString().slice(11, 23);
  const id = request.id ? ` ${request.id}` : "";
  return `${time} ${request.host} ${request.method} ${request.url} ${request.status} ${Math.round(request.ms)} ms${id}`;
}

/**
 * Writes `formatRequestLine` for every request `app` answers (`--log`). The id is the body's
 * `groupId` (cancelBulk, getBulkRuns) or the answer's `runId` (start: run, bulkStart: group);
 * getRun's run id is in its query already.
 *
 * @example
 * ```ts
 * installRequestLog(baseApp, "base", (line) => console.log(line));
 * ```
 * @param app one of the emulator's two listeners
 * @param host which one, for the line
 * @param write where the lines go
 */
export function installRequestLog(
  app: FastifyInstance,
  host: "base" | "poll",
  write: (line: string) => void
): void {
  app.addHook("onSend", async (request, _reply, payload) => {
    const groupId = (request.body as { groupId?: unknown } | undefined)?.groupId;
    if (typeof groupId === "string") {
      idsByRequest.set(request, `group=${groupId}`);
    } else if (typeof payload === "string") {
      const runId = /"runId":("[^"]*"|\d+)/.exec(payload)?.[1]?.replace(/"/g, "");
      const kind = request.url.startsWith("/spells/bulkStart") ? "group" : "run";
      if (runId !== undefined) idsByRequest.set(request, `${kind}=${runId}`);
    }
    return payload;
  });
  app.addHook("onResponse", async (request, reply) => {
    write(
      formatRequestLine({
        at: new Date(),
        host,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
        id: idsByRequest.get(request),
      })
    );
  });
}
