/**
 * What stands between the add-in (or program) and the service, when something does:
 * - `noAnswer`: nothing answered at the address (wrong host name, network, service down);
 * - `corsRefused`: the host answered, but the browser withheld the answer because the service
 *   does not allow this page's origin (CORS);
 * - `wrongKey`: the service refused the API key (401, 403);
 * - `wrongAddress`: something answered, but not the Spell Run API (a web page, 404 or 405 that is
 *   not the service's JSON, an answer that is not JSON);
 * - `unexpected`: the service answered with another error (5xx, 429, …);
 * - `blockedByPolicy`: the add-in's page may not call the address (its Content-Security-Policy),
 *   so nothing left the browser (told apart from `noAnswer` by the add-in, addin/explainPolicyBlock.ts).
 *
 * ## Example
 * ```ts
 * if (check.problem === "corsRefused") showRouteChoice();
 * ```
 */
export type ConnectionProblem =
  "noAnswer" | "corsRefused" | "wrongKey" | "wrongAddress" | "unexpected" | "blockedByPolicy";

/**
 * The answer of `SpellClient.checkConnection`: whether both hosts answer and take the key, and
 * one sentence for a user that says what is wrong and what to do.
 *
 * ## Example
 * ```ts
 * const result: ConnectionCheck = { ok: false, reachable: true, keyAccepted: false, problem: "wrongKey", message: "…" };
 * ```
 */
export interface ConnectionCheck {
  ok: boolean;
  /** Both hosts answered over HTTP (and the answers could be read). */
  reachable: boolean;
  /** The key was accepted (unknown when the service did not answer). */
  keyAccepted: boolean | undefined;
  /** What is wrong, when something is. */
  problem?: ConnectionProblem;
  /** What is wrong and what to do, for the user; never contains the key. */
  message: string;
}
