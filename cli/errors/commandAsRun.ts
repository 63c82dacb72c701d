/**
 * How the user started this command, so hints name a command that works for them:
 * `npx spellrun` inside a clone (npx), `npm run spellrun --` from the sources, else `spellrun`
 * (installed on the PATH, the documented name). A hint that says `spellrun resume …` to
 * someone who typed `npx spellrun` sends them to a command not found.
 *
 * ## Example
 * ```ts
 * `resume with: ${commandAsRun()} resume out.csv.journal`
 * ```
 *
 * @param env The environment (npm and npx say how they ran the command).
 * @return The command to type, without arguments.
 */
export function commandAsRun(env: NodeJS.ProcessEnv = process.env): string {
  if (env.npm_lifecycle_event === "spellrun") return "npm run spellrun --";
  // npx (npm exec) runs the package's bin; plain npm scripts set npm_command=run-script.
  if (env.npm_command === "exec") return "npx spellrun";
  return "spellrun";
}
