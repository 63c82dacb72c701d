import { reportLines } from "../../addin-server/src/organisation/usageCommand.js";
import type { UsageReport } from "../../addin-server/src/organisation/ledger/usageReport.js";

describe("spellrun-addin-server usage (the report as text)", () => {
  it("should print aligned tables, and a name's control characters as ? (data, never terminal commands)", () => {
    const report: UsageReport = {
      from: "2026-11-01",
      to: "2026-11-26",
      paused: true,
      byUser: [
        { user: "alice@example.test", runs: 12, calls: 3 },
        { user: "evil\u001b]0;owned\u0007@example.test", runs: 1, calls: 1 },
      ],
      byGroup: [{ group: "finance", runs: 12 }],
      bySpell: [],
      byDay: [{ day: "2026-11-26", runs: 13 }],
      budgets: [
        {
          scope: "user",
          subject: "alice@example.test",
          period: "day",
          limit: 20,
          used: 12,
          remaining: 8,
        },
      ],
    };
    const lines = reportLines(report);
    expect(lines[0]).toBe(
      "Usage from 2026-11-01 to 2026-11-26 (UTC). Kill switch: ON (no runs start)."
    );
    expect(lines).toContain("user   alice@example.test  day     20     12    8");
    expect(lines).toContain("alice@example.test           12    3");
    expect(lines).toContain("evil?]0;owned?@example.test  1     1");
    // eslint-disable-next-line no-control-regex -- the spec looks for exactly those
    expect(lines.join("\n")).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(lines[lines.indexOf("Runs per spell") + 2]).toBe("(none)");
  });
});
