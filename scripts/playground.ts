/**
 * `npm run playground`: the static playground (the real add-in over a simulated sheet, the Spell
 * service emulator running in the page; see playground/) built by `npm run build:playground`
 * and served from this computer by a plain static server, then opened in the default browser.
 * It serves exactly what a static host would, so the two cannot drift. It builds first unless
 * the build is newer than every source it is made of (`--build` forces it, `--no-build` skips it).
 * Where no browser can be opened (a server, CI) it prints the address instead.
 *
 * SPELLRUN_PLAYGROUND_PORT: the port (default 3100).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildStaticPlayground, STATIC_PLAYGROUND_DIR } from "./buildPlayground.js";
import { serveFolder } from "./serveFolder.js";

const root = path.resolve(__dirname, "..");
const port = Number(process.env.SPELLRUN_PLAYGROUND_PORT || 3100);
const SOURCES = ["addin", "functions", "taskpane", "playground", "src", "emulator"];

/** The newest modification time of the files under `folder`. */
function newest(folder: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(folder, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

function upToDate(): boolean {
  const page = path.join(STATIC_PLAYGROUND_DIR, "playground.js");
  if (!fs.existsSync(page)) return false;
  const built = fs.statSync(page).mtimeMs;
  return SOURCES.every((source) => newest(path.join(root, source)) < built);
}

/** The platform's "open this address" command. */
function opener(url: string): { command: string; args: string[] } | undefined {
  if (process.platform === "darwin") return { command: "open", args: [url] };
  if (process.platform === "win32") return { command: "cmd", args: ["/c", "start", "", url] };
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  return hasDisplay ? { command: "xdg-open", args: [url] } : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--build") || (!args.includes("--no-build") && !upToDate())) {
    console.log("Building the static playground (npm run build:playground, about a minute)…");
    await buildStaticPlayground();
  }
  const served = await serveFolder(STATIC_PLAYGROUND_DIR, port);
  const url = `${served.origin}/`;
  const open = opener(url);
  console.log(`The playground: ${url}  (Ctrl+C stops it)`);
  if (!open) {
    console.log("No browser to open here: open the address above.");
    return;
  }
  spawn(open.command, open.args, { detached: true, stdio: "ignore" })
    .on("error", () => console.log("Could not open a browser: open the address above."))
    .unref();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
