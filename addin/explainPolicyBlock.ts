import type { ConnectionCheck } from "spellrun";

/**
 * "Test connection" with the real cause when the add-in's own page may not call the service: a
 * Content-Security-Policy (`connect-src`, from the add-in server's header or the page's meta tag)
 * blocks calls to origins it does not name, and a blocked call fails in the browser exactly like
 * a host that does not answer. While `check` runs, the page's `securitypolicyviolation` events are
 * recorded; a "does not answer" whose address the policy blocked becomes `blockedByPolicy`, with
 * what to do (go through the add-in's host, or have the origin added to the server's
 * `--connect-src`). Anything else is returned as it is. Outside a page (Node), `check` as it is.
 *
 * ## Example
 * ```ts
 * const result = await explainPolicyBlock(() => client.checkConnection(), serviceAddresses(settings));
 * ```
 *
 * @param check Runs the connection check.
 * @param urls The two addresses it calls.
 * @param target Where violations are reported (the page's document).
 * @return The check, with the cause when the page's policy blocked it.
 */
export async function explainPolicyBlock(
  check: () => Promise<ConnectionCheck>,
  urls: { baseUrl: string; pollBaseUrl: string },
  target:
    Pick<Document, "addEventListener" | "removeEventListener"> | undefined = globalThis.document
): Promise<ConnectionCheck> {
  if (!target) return check();
  const blocked = new Set<string>();
  const record = (event: Event) => {
    const { blockedURI, effectiveDirective } = event as SecurityPolicyViolationEvent;
    if (effectiveDirective === "connect-src" || effectiveDirective === "default-src") {
      const origin = originOf(blockedURI);
      if (origin) blocked.add(origin);
    }
  };
  target.addEventListener("securitypolicyviolation", record);
  let result: ConnectionCheck;
  try {
    result = await check();
    // Violation events are queued as tasks: let any still pending arrive.
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    target.removeEventListener("securitypolicyviolation", record);
  }
  if (result.problem !== "noAnswer") return result;
  const origin = [urls.baseUrl, urls.pollBaseUrl]
    .map(originOf)
    .find((each) => each && blocked.has(each));
  if (!origin) return result;
  return {
    ok: false,
    reachable: false,
    keyAccepted: undefined,
    problem: "blockedByPolicy",
    message: `The add-in's page may not call ${origin}: its security policy (Content-Security-Policy, set by the add-in's host) blocks it, so the call never left the browser. Choose "Through the add-in's host" in Settings, or ask whoever runs the add-in server to allow ${origin} (--connect-src).`,
  };
}

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
