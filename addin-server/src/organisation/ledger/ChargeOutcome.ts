/**
 * What a charge came to: the runs are charged (forward the call), or the call is refused
 * (answer, forward nothing).
 *
 * ## Example
 * ```ts
 * if (outcome.kind === "refused") reply.code(429).send(budgetRefusal(outcome));
 * ```
 */
export type ChargeOutcome =
  { kind: "charged"; ledgerId: string } | { kind: "refused"; refusal: BudgetRefusal };

/**
 * Why a charge was refused: the kill switch, a limit that the runs would pass, a request key
 * reused for another call, or a call repeated while its charge stands (it may have started).
 *
 * ## Example
 * ```ts
 * const refusal: BudgetRefusal = { reason: "limit", scope: "group", subject: "finance", period: "day", limit: 500, used: 498, resetsAt: new Date() };
 * ```
 */
export type BudgetRefusal =
  | { reason: "paused" }
  | {
      reason: "limit";
      scope: "user" | "group" | "global";
      subject: string;
      period: "day" | "month";
      limit: number;
      used: number;
      resetsAt: Date;
    }
  | { reason: "requestKeyReused" }
  | { reason: "alreadyStarted" };
