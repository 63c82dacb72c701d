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

  // Signed in (a token held) or not: "Signed in as … Sign out", or the Sign in button. The
  // report shows only while signed in with a token the server accepted.
  const showSignedIn = (who: string | undefined) => {
    const signedIn = who !== undefined;
    element("sign-in").hidden = signedIn;
    element("signed-in").hidden = !signedIn;
    element("signed-in-as").textContent = who || "an account without a name";
    if (!signedIn) element("report").hidden = true;
  };

  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const answer = await fetch(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
    });
    if (!answer.ok) {
      const body = (await answer.json().catch(() => ({}))) as { message?: string };
      if (answer.status === 401) {
        token = "";
        showSignedIn(undefined);
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
  // The token lives only in this page's memory: signing out forgets it and what it showed.
  element("sign-out-button").addEventListener("click", () => {
    token = "";
    for (const id of ["budgets", "by-user", "by-group", "by-spell", "by-day"]) fill(id, []);
    showSignedIn(undefined);
    showError("");
    element("sign-in-message").textContent =
      "Signed out. Sign in with an account of the admin group.";
  });
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

  interface SignInConfig {
    clientId: string;
    scopes?: string[];
    authorizeUrl: string;
    tokenUrl: string;
  }
  const redirectUri = `${location.origin}/admin`;
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const scopeOf = (config: SignInConfig) =>
    (config.scopes ?? [`${config.clientId}/.default`]).join(" ");

  // The authorization code flow with PKCE, as a single-page app signs in with Entra ID: the
  // verifier and the state live in this tab's session storage until the code comes back.
  const startSignIn = async (config: SignInConfig) => {
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)))
    );
    sessionStorage.setItem("spellrun-admin-sign-in", JSON.stringify({ verifier, state }));
    const target = new URL(config.authorizeUrl);
    for (const [name, value] of Object.entries({
      client_id: config.clientId,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: scopeOf(config),
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
      response_mode: "query",
    })) {
      target.searchParams.set(name, value);
    }
    location.assign(target.toString());
  };

  const finishSignIn = async (config: SignInConfig, query: URLSearchParams) => {
    const saved = JSON.parse(sessionStorage.getItem("spellrun-admin-sign-in") ?? "{}") as {
      verifier?: string;
      state?: string;
    };
    sessionStorage.removeItem("spellrun-admin-sign-in");
    history.replaceState(null, "", redirectUri);
    if (!saved.verifier || saved.state !== query.get("state")) {
      throw new Error("The sign-in did not come back as it was sent; sign in again.");
    }
    const answer = await fetch(config.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: config.clientId,
        grant_type: "authorization_code",
        code: query.get("code") ?? "",
        redirect_uri: redirectUri,
        code_verifier: saved.verifier,
        scope: scopeOf(config),
      }),
    });
    const body = (await answer.json().catch(() => ({}))) as {
      access_token?: string;
      error_description?: string;
      message?: string;
    };
    if (!answer.ok || !body.access_token) {
      throw new Error(body.error_description ?? body.message ?? "The sign-in failed.");
    }
    token = body.access_token;
    const claims = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as {
      preferred_username?: string;
      name?: string;
    };
    showSignedIn(claims.preferred_username ?? claims.name ?? "");
    await load();
  };

  void (async () => {
    const config = (await (await fetch("/org/config")).json()) as SignInConfig;
    element("sign-in-button").addEventListener(
      "click",
      guarded(() => startSignIn(config))
    );
    const query = new URLSearchParams(location.search);
    if (query.has("error")) {
      showError(`Sign-in failed: ${query.get("error_description") ?? query.get("error")}`);
    } else if (query.has("code")) {
      await finishSignIn(config, query);
    }
  })().catch((error: unknown) => showError(error instanceof Error ? error.message : String(error)));
})();
