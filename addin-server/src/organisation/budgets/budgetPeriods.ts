/**
 * The budget periods a moment falls in (UTC), as the counters name them, and when each resets.
 *
 * ## Example
 * ```ts
 * budgetPeriods(new Date("2026-11-26T10:00:00Z"));
 * // { day: "2026-11-26", month: "2026-11", dayResetsAt: 2026-11-27T00:00Z, monthResetsAt: 2026-12-01T00:00Z }
 * ```
 *
 * @param now The moment.
 * @return Its day and month, and the next midnight and first of the month (UTC).
 */
export function budgetPeriods(now: Date): {
  day: string;
  month: string;
  dayResetsAt: Date;
  monthResetsAt: Date;
} {
  const day = now.toISOString().slice(0, 10);
  return {
    day,
    month: day.slice(0, 7),
    dayResetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
    monthResetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}
