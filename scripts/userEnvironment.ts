/**
 * The environment of a user's own shell: this process's, without what npm adds to the scripts it
 * runs (`npm_config_*`, `npm_package_*`, `npm_lifecycle_*`, `npm_execpath`, …). Under `npm test`
 * those carry the repository's own `.npmrc` (`legacy-peer-deps=true`) into every npm a spec or
 * script starts, so an install that a user's shell makes with peer dependencies would be made
 * without them: a spec that plays a user must not inherit them.
 *
 * ## Example
 * ```ts
 * spawn("bash", ["-c", readmeBlock], { env: { ...userEnvironment(), npm_config_prefix: prefix } });
 * ```
 * @param env the environment to start from (this process's by default)
 * @return a copy without npm's script variables
 */
export function userEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !/^npm_/i.test(name) && name !== "INIT_CWD")
  );
}
