/**
 * The admin page (`GET /admin`): a static page, all data filled in by `adminPage.ts` as text
 * (never markup). No inline script, so the server's CSP (`script-src 'self'`) holds.
 */
export const adminPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Spell Run: organisation usage</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
  table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
  th, td { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: left; }
  td.number { text-align: right; }
  .paused { color: #a00; font-weight: bold; }
  [hidden] { display: none; }
</style>
</head>
<body>
<h1>Spell Run usage</h1>
<section id="sign-in">
  <p id="sign-in-message">Sign in with an account of the admin group.</p>
  <button id="sign-in-button" type="button">Sign in</button>
</section>
<section id="signed-in" hidden>
  <p>Signed in as <span id="signed-in-as"></span>. <button id="sign-out-button" type="button">Sign out</button></p>
</section>
<section id="report" hidden>
  <p id="range"></p>
  <p>Kill switch: <span id="paused-state"></span> <button id="toggle-pause" type="button"></button>
     <button id="export-csv" type="button">Export CSV</button> <button id="refresh" type="button">Refresh</button></p>
  <h2>Remaining budgets</h2>
  <table id="budgets"><thead><tr><th>Scope</th><th>Who</th><th>Period</th><th>Limit</th><th>Used</th><th>Remaining</th></tr></thead><tbody></tbody></table>
  <h2>Runs per user</h2>
  <table id="by-user"><thead><tr><th>User</th><th>Runs</th><th>Calls</th></tr></thead><tbody></tbody></table>
  <h2>Runs per group</h2>
  <table id="by-group"><thead><tr><th>Group</th><th>Runs</th></tr></thead><tbody></tbody></table>
  <h2>Runs per spell</h2>
  <table id="by-spell"><thead><tr><th>Spell</th><th>Runs</th></tr></thead><tbody></tbody></table>
  <h2>Runs per day</h2>
  <table id="by-day"><thead><tr><th>Day</th><th>Runs</th></tr></thead><tbody></tbody></table>
</section>
<p id="error" role="alert"></p>
<script src="/admin/adminPage.js"></script>
</body>
</html>
`;
