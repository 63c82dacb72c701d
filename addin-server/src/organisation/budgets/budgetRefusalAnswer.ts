import type { BudgetRefusal } from "../ledger/ChargeOutcome";

/**
 * The JSON answer to a refused start, in the service's error shape, with a message the cell and
 * the task pane show as it is: "Your organisation's daily limit of 500 runs is reached; resets at
 * 2026-11-27 00:00 UTC." Status 403 (409 for a reused request key or a repeated call): the client does not retry it.
 *
 * ## Example
 * ```ts
 * const answer = budgetRefusalAnswer(outcome.refusal);
 * reply.code(answer.statusCode).send(answer);
 * ```
 *
 * @param refusal Why the charge was refused.
 * @return The status and body.
 */
export function budgetRefusalAnswer(refusal: BudgetRefusal): {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  resetsAt?: string;
} {
  if (refusal.reason === "paused") {
    return {
      statusCode: 403,
      error: "Forbidden",
      code: "organisation_paused",
      message: "Your organisation has paused Spell runs; ask your administrator.",
    };
  }
  if (refusal.reason === "alreadyStarted") {
    return {
      statusCode: 409,
      error: "Conflict",
      code: "already_started",
      message:
        "This call was already sent and charged, so the service may have started it: not sent again.",
    };
  }
  if (refusal.reason === "requestKeyReused") {
    return {
      statusCode: 409,
      error: "Conflict",
      code: "request_key_reused",
      message: "This request's Idempotency-Key was already used for another call; not started.",
    };
  }
  const whose =
    refusal.scope === "user"
      ? "Your"
      : refusal.scope === "group"
        ? `Your group ${refusal.subject}'s`
        : "Your organisation's";
  const period = refusal.period === "day" ? "daily" : "monthly";
  const resets = `${refusal.resetsAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const left = Math.max(0, refusal.limit - refusal.used);
  return {
    statusCode: 403,
    error: "Forbidden",
    code: "budget_exhausted",
    // With runs left the limit is not reached: the call needs more runs than remain.
    message:
      left > 0
        ? `This call needs more runs than the ${left} left of ${whose.replace(/^Your/, "your")} ${period} limit of ${refusal.limit}; resets at ${resets}.`
        : `${whose} ${period} limit of ${refusal.limit} runs is reached; resets at ${resets}.`,
    resetsAt: refusal.resetsAt.toISOString(),
  };
}
