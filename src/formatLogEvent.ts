import { describeRequest } from "./errors/describeRequest.js";
import type { SpellLogEvent } from "./SpellLogEvent.js";

/** Bodies are cut here in a log line: a bulk's inputs can be megabytes. */
const MAX_BODY_CHARS = 2000;

/**
 * One readable line for a log event, e.g.
 *
 * ```
 * sent POST /spells/bulkStart
 * answered POST /spells/bulkStart: HTTP 200 in 12 ms, group g-1
 * poll POST /spells/getBulkRuns, group g-1: 10 runs, success 4, inProgress 6
 * retry 1 of GET /spells/getRun, run 7, in 300 ms after SpellHttpError: … HTTP 503
 * cancel POST /spells/cancelBulk, group g-1
 * ```
 *
 * It holds what the event holds, so never the key; a body (only with `logBodies`) is cut after
 * 2,000 characters.
 *
 * ## Example
 * ```ts
 * new SpellClient({ ...connection, logger: (event) => console.error(formatLogEvent(event)) });
 * ```
 * @param event a client's log event
 * @return the line, without a line break
 */
export function formatLogEvent(event: SpellLogEvent): string {
  const request = describeRequest(event.method, event.endpoint);
  const about = [
    event.runId === undefined ? "" : `, run ${String(event.runId)}`,
    event.groupId === undefined ? "" : `, group ${event.groupId}`,
  ].join("");
  switch (event.type) {
    case "request":
      return `sent ${request}${about}${bodyText(event.body)}`;
    case "response":
      return `answered ${request}: HTTP ${event.status} in ${event.durationMs} ms${about}${bodyText(event.body)}`;
    case "failed": {
      const status = event.status === undefined ? "" : `HTTP ${event.status} `;
      return `failed ${request}${about}: ${status}after ${event.durationMs} ms (${event.error})`;
    }
    case "aborted":
      return `aborted ${request}${about} after ${event.durationMs} ms (unsubscribed)`;
    case "retry":
      return `retry ${event.retry} of ${request}${about} in ${event.delayMs} ms after ${event.error}`;
    case "poll": {
      if ("state" in event) {
        const service = event.serviceState === undefined ? "" : ` (service: ${event.serviceState})`;
        return `poll ${request}${about}: ${event.state}${service}`;
      }
      const counts = Object.entries(event.counts)
        .filter(([, count]) => count > 0)
        .map(([state, count]) => `${state} ${count}`)
        .join(", ");
      return `poll ${request}${about}: ${event.runs} runs${counts ? `, ${counts}` : ""}`;
    }
    case "cancel":
      return `cancel ${request}${about}`;
  }
}

function bodyText(body: unknown): string {
  if (body === undefined) return "";
  const text = jsonText(body);
  return text.length > MAX_BODY_CHARS
    ? ` body ${text.slice(0, MAX_BODY_CHARS)}… [${text.length} characters]`
    : ` body ${text}`;
}

/**
 * A body as JSON, whatever it holds: a BigInt as its digits, and a body JSON cannot hold (a
 * circle) as a note, so that formatting a log line never throws.
 */
function jsonText(body: unknown): string {
  try {
    return (
      JSON.stringify(body, (_key, value: unknown) =>
        typeof value === "bigint" ? value.toString() : value
      ) ?? String(body)
    );
  } catch (error) {
    return `(not JSON: ${error instanceof Error ? error.message : String(error)})`;
  }
}
