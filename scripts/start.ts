/**
 * `npm start`: the local Spell service emulator plus the add-in's dev server, in the background,
 * the way the Office templates' `npm start` leaves a dev server running. `npm stop` ends both.
 *
 * - Where Excel desktop exists (Windows, macOS) the manifest is sideloaded as the Office templates
 *   do (office-addin-debugging). Elsewhere it prints the playground's address (the real add-in over
 *   a simulated sheet in the browser, playground/) and how to sideload manifest.xml by hand.
 * - The emulator's key is a local development key, printed on purpose; a real key is never printed.
 * - SPELL_BASE_URL / SPELL_POLL_BASE_URL / SPELL_API_KEY set: the real service is used instead of the
 *   emulator, which is then not started.
 * - SPELLRUN_ORGANISATION=1: also the local issuer and the add-in server in organisation mode in
 *   front of the emulator (scripts/organisationDevConfig.ts); the dev server forwards through it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { GATEWAY_PORT, organisationDevConfig } from "./organisationDevConfig";

const root = path.resolve(__dirname, "..");
const stateDir = path.join(root, ".spellrun");
const stateFile = path.join(stateDir, "processes.json");

const emulatorPort = Number(process.env.SPELL_EMULATOR_PORT || 3001);
const emulatorPollPort = Number(process.env.SPELL_EMULATOR_POLL_PORT || 3002);
const emulatorKey = process.env.SPELL_EMULATOR_API_KEY || "spellrun-dev-key";
const devServerPort = Number(process.env.SPELLRUN_DEV_SERVER_PORT || 3000);
const useRealService = Boolean(process.env.SPELL_BASE_URL);
const hasExcelDesktop = process.platform === "win32" || process.platform === "darwin";
// SPELLRUN_ORGANISATION=1: the add-in server's organisation mode too (sign-in, budgets, ledger).
const organisationMode = /^(1|true)$/i.test(process.env.SPELLRUN_ORGANISATION ?? "");

/** Resolves once something accepts connections on the port, or rejects after the timeout. */
function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`nothing listens on port ${port} after ${timeoutMs} ms`));
        else setTimeout(attempt, 250);
      });
    };
    attempt();
  });
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => (socket.destroy(), resolve(false)));
  });
}

/** Starts a command detached from this process, its output in .spellrun/<name>.log. */
function startDetached(name: string, command: string, args: string[]): number {
  const log = fs.openSync(path.join(stateDir, `${name}.log`), "w");
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", log, log],
    env: process.env,
  });
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  return child.pid;
}

/** The playground page the dev server serves (playground/). */
function playgroundUrl(): string {
  return `https://localhost:${devServerPort}/playground.html`;
}

async function main(): Promise<void> {
  fs.mkdirSync(stateDir, { recursive: true });
  if (fs.existsSync(stateFile)) {
    console.log(
      "spellrun seems to be running already (.spellrun/processes.json); `npm stop` first."
    );
    process.exit(1);
  }
  const processes: Record<string, number> = {};
  const save = () => fs.writeFileSync(stateFile, JSON.stringify(processes, null, 2));
  const tsx = path.join(root, "node_modules", ".bin", "tsx");

  if (!useRealService) {
    for (const port of [emulatorPort, emulatorPollPort]) {
      if (await portInUse(port))
        throw new Error(
          `port ${port} is in use; set SPELL_EMULATOR_PORT / SPELL_EMULATOR_POLL_PORT`
        );
    }
    processes.emulator = startDetached("emulator", tsx, [
      "emulator/cli.ts",
      "--port",
      String(emulatorPort),
      "--poll-port",
      String(emulatorPollPort),
      "--api-key",
      emulatorKey,
    ]);
    save();
    await waitForPort(emulatorPort, 30_000);
    await waitForPort(emulatorPollPort, 30_000);
  }

  if (organisationMode && !useRealService) {
    const dev = organisationDevConfig(root, {
      port: emulatorPort,
      pollPort: emulatorPollPort,
      key: emulatorKey,
    });
    processes.localIssuer = startDetached("local-issuer", tsx, dev.issuerArgs);
    processes.gateway = startDetached("gateway", tsx, dev.gatewayArgs);
    save();
    await waitForPort(GATEWAY_PORT, 60_000);
    // The dev server proxies the add-in's calls to the gateway (webpack.config.js).
    process.env.SPELLRUN_DEV_GATEWAY_PORT = String(GATEWAY_PORT);
  }

  if (hasExcelDesktop) {
    // As the Office templates do: office-addin-debugging starts the dev server and sideloads.
    processes.officeDebugging = startDetached("office-addin-debugging", "npx", [
      "office-addin-debugging",
      "start",
      "manifest.xml",
      "desktop",
      "--app",
      "excel",
      "--dev-server",
      "npm run dev-server",
      "--dev-server-port",
      String(devServerPort),
    ]);
  } else {
    processes.devServer = startDetached(
      "dev-server",
      path.join(root, "node_modules", ".bin", "webpack"),
      ["serve", "--mode", "development"]
    );
  }
  save();
  await waitForPort(devServerPort, 180_000);

  const baseUrl = useRealService ? process.env.SPELL_BASE_URL : `http://127.0.0.1:${emulatorPort}`;
  const pollBaseUrl = useRealService
    ? process.env.SPELL_POLL_BASE_URL
    : `http://127.0.0.1:${emulatorPollPort}`;
  console.log(`
spellrun is running.

  Spell service   ${useRealService ? "the real service" : "local emulator"}
    base URL      ${baseUrl}
    poll base URL ${pollBaseUrl}
    API key       ${useRealService ? "(from SPELL_API_KEY, not shown)" : emulatorKey}
  Add-in          https://localhost:${devServerPort}/taskpane.html  (manifest: manifest.xml)
  Playground      ${playgroundUrl()}  (the add-in over a simulated sheet: no Excel needed)
  Logs            .spellrun/*.log${
    organisationMode
      ? `
  Organisation    sign in as admin@example.test (admin), alice@example.test or bob@example.test
    admin page    https://localhost:${devServerPort}/admin   (files: .spellrun/organisation/)`
      : ""
  }

Try the service:
  curl -s -X POST ${baseUrl}/spells/start -H "Authorization: Bearer ${useRealService ? "$SPELL_API_KEY" : emulatorKey}" \\
       -H "Content-Type: application/json" -d '{"spellId":"summarize","wait":true,"inputs":{"text":"Spells are stored AI workflows. They run on demand."}}'
${
  hasExcelDesktop
    ? "\nExcel desktop is being started with the add-in sideloaded (office-addin-debugging)."
    : `
No Excel desktop on this machine. Try the add-in in the playground (\`npm run playground\` opens it):
  ${playgroundUrl()}
  It simulates Excel for trying and demos: a sheet of reviews, the real task pane and SPELL functions.
To use the add-in in Excel:
  - Excel on the web: open a workbook, Home > Add-ins > More Add-ins > Upload My Add-in,
    and upload manifest.xml from this folder.
  - Excel desktop (Windows/macOS): run \`npm start\` there, or follow
    https://learn.microsoft.com/office/dev/add-ins/testing/test-debug-office-add-ins (sideloading).
  - The dev server uses the Office dev certificates; trust them once with
    \`npx office-addin-dev-certs install\`.`
}
${
  organisationMode
    ? "Then open Spell Run (Home tab) > Settings and sign in: the organisation holds the key."
    : "Then open Spell Run (Home tab) > Settings, and paste the API key above."
}
Stop everything with \`npm stop\`.`);
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error("Run `npm stop` to end anything that did start.");
  process.exit(1);
});
