import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

let script: string | undefined;

/**
 * The admin page's script: `adminPage.js` as the build compiled it next to this file; from a
 * clone run with tsx (development, specs) the `adminPage.ts` beside it, compiled once by
 * esbuild (a development dependency of the repository).
 *
 * ## Example
 * ```ts
 * reply.type("text/javascript").send(adminPageScript());
 * ```
 *
 * @return The JavaScript text.
 */
export function adminPageScript(): string {
  if (script !== undefined) return script;
  const built = path.join(__dirname, "adminPage.js");
  if (existsSync(built)) {
    script = readFileSync(built, "utf8");
  } else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require("esbuild") as typeof import("esbuild");
    script = esbuild.transformSync(readFileSync(path.join(__dirname, "adminPage.ts"), "utf8"), {
      loader: "ts",
      target: "es2020",
    }).code;
  }
  return script;
}
