/// <reference lib="dom" />
// The admin page's script (served as /admin/adminPage.js): signs in, shows the usage report as
// text in table cells (never markup: every value goes through textContent), toggles the kill
// switch, downloads the CSV. A browser script, not a module: everything inside one function.
(() => {
  interface Report {
    from: string;
    to: string;
    paused: boolean;
    byUser: { user: string; runs: number; calls: number }[];
    byGroup: { group: string; runs: number }[];
    bySpell: { spellId: string; runs: number }[];
    byDay: { day: string; runs: number }[];
    budgets: {
      scope: string;
      subject: string;
      period: string;
      limit: number;
      used: number;
      remaining: number;
    }[];
  }
  const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  let token = "";
  let paused = false;

  const showError = (message: string) => {
    element("error").textContent = message;
  };

  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const answer = await fetch(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
    });
    if (!answer.ok) {
      const body = (await answer.json().catch(() => ({}))) as { message?: string };
      if (answer.status === 401) {
        element("report").hidden = true;
        element("sign-in").hidden = false;
      }
      throw new Error(body.message ?? `${answer.status} ${answer.statusText}`);
    }
    return answer;
  };

  const fill = (tableId: string, rows: (string | number)[][]) => {
    const body = element<HTMLTableElement>(tableId).tBodies[0]!;
    body.replaceChildren(
      ...rows.map((cells) => {
        const row = document.createElement("tr");
        for (const value of cells) {
          const cell = document.createElement("td");
          cell.textContent = String(value);
          if (typeof value === "number") cell.className = "number";
          row.append(cell);
        }
        return row;
      })
    );
  };

  const load = async () => {
    const report = (await (await call("/admin/api/usage")).json()) as Report;
    paused = report.paused;
    element("range").textContent = `From ${report.from} to ${report.to} (UTC).`;
    element("paused-state").textContent = paused ? "ON: no runs start" : "off";
    element("paused-state").className = paused ? "paused" : "";
    element("toggle-pause").textContent = paused ? "Resume runs" : "Pause all runs";
    fill(
      "budgets",
      report.budgets.map((b) => [b.scope, b.subject, b.period, b.limit, b.used, b.remaining])
    );
    fill(
      "by-user",
      report.byUser.map((u) => [u.user, u.runs, u.calls])
    );
    fill(
      "by-group",
      report.byGroup.map((g) => [g.group, g.runs])
    );
    fill(
      "by-spell",
      report.bySpell.map((s) => [s.spellId, s.runs])
    );
    fill(
      "by-day",
      report.byDay.map((d) => [d.day, d.runs])
    );
    element("sign-in").hidden = true;
    element("report").hidden = false;
    showError("");
  };

  const guarded = (work: () => Promise<void>) => () => {
    work().catch((error: unknown) =>
      showError(error instanceof Error ? error.message : String(error))
    );
  };

  element("toggle-pause").addEventListener(
    "click",
    guarded(async () => {
      await call("/admin/api/pause", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ paused: !paused }),
      });
      await load();
    })
  );
  element("refresh").addEventListener("click", guarded(load));
  element("export-csv").addEventListener(
    "click",
    guarded(async () => {
      const answer = await call("/admin/api/usage.csv");
      const name = /filename="([^"]+)"/.exec(answer.headers.get("content-disposition") ?? "")?.[1];
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await answer.blob());
      link.download = name ?? "spellrun-usage.csv";
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    })
  );

  const signInWithDevIssuer = async (user: string) => {
    const answer = await fetch("/org/dev-token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user }),
    });
    const body = (await answer.json()) as { access_token?: string; message?: string };
    if (!answer.ok || !body.access_token) throw new Error(body.message ?? "sign-in failed");
    token = body.access_token;
    element("signed-in-as").textContent = user;
    await load();
  };

  void (async () => {
    const config = (await (await fetch("/org/config")).json()) as { devSignIn?: boolean };
    if (config.devSignIn) {
      element("dev-sign-in").hidden = false;
      element("dev-sign-in").addEventListener("submit", (event) => {
        event.preventDefault();
        guarded(() => signInWithDevIssuer(element<HTMLInputElement>("dev-user").value.trim()))();
      });
    } else {
      element("sign-in-message").textContent =
        "This page signs in through the development issuer only; with Entra ID, use `spellrun-addin-server usage`.";
    }
  })().catch((error: unknown) => showError(String(error)));
})();
