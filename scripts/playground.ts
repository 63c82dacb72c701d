/**
 * `npm run playground`: opens the playground (the real add-in over a simulated sheet, see
 * playground/) in the default browser, starting `npm start` first when it is not running.
 * Where no browser can be opened (a server, CI) it prints the address instead.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");
const devServerPort = Number(process.env.SPELLRUN_DEV_SERVER_PORT || 3000);
const url = `https://localhost:${devServerPort}/playground.html`;

/** The platform's "open this address" command. */
function opener(): { command: string; args: string[] } | undefined {
  if (process.platform === "darwin") return { command: "open", args: [url] };
  if (process.platform === "win32") return { command: "cmd", args: ["/c", "start", "", url] };
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  return hasDisplay ? { command: "xdg-open", args: [url] } : undefined;
}

function main(): void {
  if (!fs.existsSync(path.join(root, ".spellrun", "processes.json"))) {
    const started = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: root,
      stdio: "inherit",
    });
    if (started.status !== 0) process.exit(started.status ?? 1);
  }
  const open = opener();
  if (!open) {
    console.log(`No browser to open here. The playground: ${url}`);
    return;
  }
  spawn(open.command, open.args, { detached: true, stdio: "ignore" })
    .on("error", () => console.log(`Could not open a browser. The playground: ${url}`))
    .unref();
  console.log(`Opening the playground: ${url}
(The dev server uses the Office dev certificates: trust them once with \`npx office-addin-dev-certs install\`.)`);
}

main();
