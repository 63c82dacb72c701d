import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The folder of the add-in build to serve: a production build made here, as it ships (into the
 * cache, so that dist/addin, perhaps a build for the user's own host, is not replaced), or with
 * `--no-build` the one in dist/addin.
 *
 * ## Example
 * ```ts
 * const addinDir = addinBuild(path.join(__dirname, ".."));
 * ```
 * @param root the repository's folder
 * @return the folder of the build
 */
export function addinBuild(root: string): string {
  const existing = path.join(root, "dist", "addin");
  if (process.argv.includes("--no-build")) {
    if (!existsSync(path.join(existing, "taskpane.html"))) {
      throw new Error("--no-build: dist/addin holds no build (npm run build:addin or build:dev)");
    }
    return existing;
  }
  const output = path.join(root, "node_modules", ".cache", "spellrun-bench", "addin");
  // The build as deployed with the add-in server: it names its host (https, not this computer:
  // the build refuses localhost; never contacted here) and no service, so the add-in calls the
  // service through its host. Service addresses from the environment (the README's exported
  // emulator addresses, say) would make it a "directly" build, which refuses http://.
  const env: NodeJS.ProcessEnv = {
    SPELLRUN_ADDIN_URL: "https://addin.example.com/",
    SPELLRUN_ADDIN_ID: "e27a0de5-7e57-4b1d-9c1a-000000000027",
    ...process.env,
  };
  for (const name of ["SPELL_BASE_URL", "SPELL_POLL_BASE_URL", "SPELLRUN_CONNECT_SRC"]) {
    delete env[name];
  }
  const built = spawnSync(
    "npm",
    ["run", "--silent", "build:addin", "--", "--output-path", output],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env,
    }
  );
  if (built.status !== 0) throw new Error("npm run build:addin failed");
  return output;
}
