import { SpellHttpError } from "../../src/errors/SpellHttpError.js";
import { SpellNetworkError } from "../../src/errors/SpellNetworkError.js";
import { SpellProtocolError } from "../../src/errors/SpellProtocolError.js";
import { shouldRetry } from "../../src/operators/shouldRetry.js";
import type { Endpoint } from "../../src/types.js";

const http = (status: number) => new SpellHttpError(status, {}, "POST", "start");
const refused = () => {
  const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
    code: "ECONNREFUSED",
  });
  return new SpellNetworkError("POST", "start", new TypeError("fetch failed", { cause }));
};
const reset = () => {
  const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new SpellNetworkError("POST", "start", new TypeError("fetch failed", { cause }));
};
// Browsers: a bare TypeError, nothing to tell refused from reset.
const browserFailure = () =>
  new SpellNetworkError("POST", "start", new TypeError("Failed to fetch"));

describe("shouldRetry", () => {
  const reads: Endpoint[] = ["getRun", "getBulkRuns", "cancelBulk"];
  const starts: Endpoint[] = ["start", "bulkStart"];

  const table: Array<[string, () => unknown, boolean, boolean]> = [
    // failure,                 error,                        reads+cancel, starts
    ["429 Too Many Requests", () => http(429), true, true],
    ["503 Service Unavailable", () => http(503), true, true],
    ["connection refused", refused, true, true],
    ["500 Internal Error", () => http(500), true, false],
    ["502 Bad Gateway", () => http(502), true, false],
    ["504 Gateway Timeout", () => http(504), true, false],
    ["408 Request Timeout", () => http(408), true, false],
    ["connection reset", reset, true, false],
    ["browser fetch failure", browserFailure, true, false],
    ["400 Bad Request", () => http(400), false, false],
    ["401 Unauthorized", () => http(401), false, false],
    ["403 Forbidden", () => http(403), false, false],
    ["404 Not Found", () => http(404), false, false],
    ["413 Payload Too Large", () => http(413), false, false],
    ["protocol error", () => new SpellProtocolError("GET", "getRun", "x", {}), false, false],
    ["programming error", () => new TypeError("x"), false, false],
  ];

  for (const [failure, error, retryReads, retryStarts] of table) {
    it(`should ${retryReads ? "" : "not "}retry reads and cancelBulk on ${failure}`, () => {
      for (const endpoint of reads)
        expect(shouldRetry(endpoint, error())).withContext(endpoint).toBe(retryReads);
    });
    it(`should ${retryStarts ? "" : "not "}retry start and bulkStart on ${failure}`, () => {
      for (const endpoint of starts)
        expect(shouldRetry(endpoint, error())).withContext(endpoint).toBe(retryStarts);
    });
  }

  it("should find ECONNREFUSED inside an AggregateError (Node happy eyeballs)", () => {
    const inner = Object.assign(new Error("connect ECONNREFUSED ::1:1"), { code: "ECONNREFUSED" });
    const cause = new AggregateError([inner], "");
    const error = new SpellNetworkError("POST", "start", new TypeError("fetch failed", { cause }));
    expect(error.connectionRefused).toBeTrue();
    expect(shouldRetry("start", error)).toBeTrue();
  });
});
