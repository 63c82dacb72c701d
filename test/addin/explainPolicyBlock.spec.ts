import type { ConnectionCheck } from "../../src/index.js";
import { explainPolicyBlock } from "../../addin/explainPolicyBlock.js";

const NO_ANSWER: ConnectionCheck = {
  ok: false,
  reachable: false,
  keyAccepted: undefined,
  problem: "noAnswer",
  message: "The service does not answer at the base URL (https://api.spell.example/v1).",
};
const urls = { baseUrl: "https://api.spell.example/v1", pollBaseUrl: "https://poll.spell.example" };

/** A page's document as far as violations go: a `securitypolicyviolation` event it can fire. */
function page() {
  const target = new EventTarget();
  const violate = (blockedURI: string, effectiveDirective = "connect-src") =>
    target.dispatchEvent(
      Object.assign(new Event("securitypolicyviolation"), { blockedURI, effectiveDirective })
    );
  return { target: target as unknown as Document, violate };
}

describe("explainPolicyBlock (Test connection when the page's own policy blocks the call)", () => {
  it("should say the page's security policy blocked the address, not that it does not answer", async () => {
    const { target, violate } = page();
    const check = await explainPolicyBlock(
      async () => {
        violate("https://api.spell.example/v1/spells/getBulkRuns");
        return NO_ANSWER;
      },
      urls,
      target
    );
    expect(check.problem).toBe("blockedByPolicy");
    expect(check.message).toContain("may not call https://api.spell.example");
    expect(check.message).toContain("security policy");
    expect(check.message).toContain("Through the add-in's host");
    expect(check.message).not.toContain("does not answer");
  });

  it("should leave a real 'does not answer', another host's violation and other problems as they are", async () => {
    const { target, violate } = page();
    expect(await explainPolicyBlock(async () => NO_ANSWER, urls, target)).toEqual(NO_ANSWER);
    const elsewhere = await explainPolicyBlock(
      async () => {
        violate("https://cdn.example/font.woff", "font-src");
        violate("https://other.example/x");
        return NO_ANSWER;
      },
      urls,
      target
    );
    expect(elsewhere).toEqual(NO_ANSWER);
    const wrongKey: ConnectionCheck = { ...NO_ANSWER, reachable: true, problem: "wrongKey" };
    const kept = await explainPolicyBlock(
      async () => {
        violate("https://api.spell.example/v1/spells/getBulkRuns");
        return wrongKey;
      },
      urls,
      target
    );
    expect(kept).toEqual(wrongKey);
  });

  it("should run the check as it is where there is no page", async () => {
    expect(await explainPolicyBlock(async () => NO_ANSWER, urls, undefined)).toEqual(NO_ANSWER);
  });
});
