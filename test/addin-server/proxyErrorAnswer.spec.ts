import { AnswerTooLargeError, ForwardTimeoutError } from "../../addin-server/src/forwardCall.js";
import { notJsonAnswer, proxyErrorAnswer } from "../../addin-server/src/proxyErrorAnswer.js";

describe("proxyErrorAnswer (the add-in server's answer when a forwarded call failed)", () => {
  const withCause = (code: string) =>
    Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error(code), { code }),
    });

  it("should answer 503 only when nothing reached the service, so the add-in may send a start again", () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(proxyErrorAnswer(withCause(code)).statusCode)
        .withContext(code)
        .toBe(503);
    }
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]) {
      expect(proxyErrorAnswer(withCause(code)).statusCode)
        .withContext(code)
        .toBe(502);
    }
  });

  it("should answer 504 at the total time limit and 502 for an answer too large or not JSON", () => {
    expect(proxyErrorAnswer(new ForwardTimeoutError(100))).toEqual(
      jasmine.objectContaining({ statusCode: 504, code: "upstream_timeout" })
    );
    expect(proxyErrorAnswer(new AnswerTooLargeError(10))).toEqual(
      jasmine.objectContaining({ statusCode: 502, code: "upstream_too_large" })
    );
    const notJson = notJsonAnswer(503, 'text/html; charset="<script>"');
    expect(notJson.statusCode).toBe(502);
    expect(notJson.message).toContain("HTTP 503 with text/html instead of JSON");
    expect(notJson.message).not.toContain("<script>");
    expect(notJsonAnswer(200, undefined).message).toContain("a body of no type");
  });
});
