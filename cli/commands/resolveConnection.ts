import { readFileSync } from "node:fs";
import { parseServiceUrl, type SpellClientOptions } from "spellrun";
import { UsageError } from "../errors/UsageError.js";
import { networkOptions, type NetworkFlags } from "./networkOptions.js";

/**
 * The connection options every service command takes. There is deliberately no way to pass the
 * key itself: a command-line argument sits in shell history and in `ps`.
 *
 * ## Example
 * ```ts
 * const options: ConnectionFlags = { baseUrl: "http://127.0.0.1:3001", apiKeyFile: "~/.spell-key" };
 * ```
 */
export interface ConnectionFlags extends NetworkFlags {
  baseUrl?: string;
  pollBaseUrl?: string;
  authHeader?: string;
  apiKeyFile?: string;
  /** Present only when someone typed `--api-key`: refused. */
  apiKey?: string;
}

/**
 * Builds the client's connection from flags, then what a journal recorded, then the environment (`SPELL_BASE_URL`,
 * `SPELL_POLL_BASE_URL`, `SPELL_API_KEY`). The key comes from
 * `--api-key-file` or `SPELL_API_KEY` only. Adds the proxy and the log (see `networkOptions`).
 *
 * ## Example
 * ```ts
 * const client = new SpellClient(resolveConnection(flags, process.env));
 * ```
 * @param flags the command's options
 * @param env the environment
 * @param recorded the addresses a journal recorded (resume)
 * @return the connection part of `SpellClientOptions`
 */
export function resolveConnection(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  recorded?: Pick<SpellClientOptions, "baseUrl" | "pollBaseUrl" | "authHeader">
): Pick<
  SpellClientOptions,
  "apiKey" | "baseUrl" | "pollBaseUrl" | "authHeader" | "fetch" | "logger" | "logBodies"
> {
  if (flags.apiKey !== undefined) {
    throw new UsageError(
      "The API key is never taken from the command line (it would stay in shell history and ps): set SPELL_API_KEY or use --api-key-file FILE"
    );
  }
  const baseUrl = flags.baseUrl ?? recorded?.baseUrl ?? env.SPELL_BASE_URL;
  const pollBaseUrl = flags.pollBaseUrl ?? recorded?.pollBaseUrl ?? env.SPELL_POLL_BASE_URL;
  if (!baseUrl || !pollBaseUrl) {
    throw new UsageError(
      "No service address: pass --base-url and --poll-base-url (or set SPELL_BASE_URL and SPELL_POLL_BASE_URL)"
    );
  }
  for (const [name, url] of [
    ["--base-url", baseUrl],
    ["--poll-base-url", pollBaseUrl],
  ] as const) {
    const parsed = parseServiceUrl(url);
    if (!parsed.ok) throw new UsageError(`${name} ${parsed.says}`);
  }
  const authHeader = (flags.authHeader ?? recorded?.authHeader ?? "authorization").toLowerCase();
  if (authHeader !== "authorization" && authHeader !== "x-api-key") {
    throw new UsageError("--auth-header must be authorization or x-api-key");
  }
  return {
    apiKey: readApiKey(flags, env),
    baseUrl,
    pollBaseUrl,
    authHeader,
    ...networkOptions(flags, env),
  };
}

function readApiKey(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string {
  if (flags.apiKeyFile !== undefined) {
    let key: string;
    try {
      key = readFileSync(flags.apiKeyFile, "utf8").trim();
    } catch (error) {
      // The message names the file, never its content.
      throw new UsageError(
        `Cannot read --api-key-file ${flags.apiKeyFile}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`
      );
    }
    if (!key) throw new UsageError(`--api-key-file ${flags.apiKeyFile} is empty`);
    return key;
  }
  const key = env.SPELL_API_KEY?.trim();
  if (!key) {
    throw new UsageError("No API key: set SPELL_API_KEY or use --api-key-file FILE");
  }
  return key;
}
