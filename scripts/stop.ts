/**
 * `npm stop`: ends what `npm start` started (emulator, dev server, office-addin-debugging),
 * by the process groups recorded in .spellrun/processes.json.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");
const stateFile = path.join(root, ".spellrun", "processes.json");

function stop(name: string, pid: number): void {
  try {
    // Detached children lead their own process group: end the group, so grandchildren go too.
    process.kill(process.platform === "win32" ? pid : -pid, "SIGTERM");
    console.log(`stopped ${name} (pid ${pid})`);
  } catch {
    console.log(`${name} (pid ${pid}) was not running`);
  }
}

if (!fs.existsSync(stateFile)) {
  console.log("Nothing to stop: npm start is not running.");
} else {
  const processes = JSON.parse(fs.readFileSync(stateFile, "utf8")) as Record<string, number>;
  if (processes.officeDebugging !== undefined) {
    spawnSync("npx", ["office-addin-debugging", "stop", "manifest.xml"], {
      cwd: root,
      stdio: "inherit",
    });
  }
  for (const [name, pid] of Object.entries(processes)) stop(name, pid);
  fs.rmSync(stateFile);
}
