/**
 * Why an address cannot be a Spell service address (see `parseServiceUrl`).
 *
 * ## Example
 * ```ts
 * const problem: ServiceUrlProblem = "hasQueryOrFragment";
 * ```
 */
export type ServiceUrlProblem = "notAbsolute" | "notHttp" | "hasCredentials" | "hasQueryOrFragment";

/**
 * A service address checked by `parseServiceUrl`: `url` is what the API's paths are appended to
 * (normalised, without trailing slashes), `hostname` and `protocol` what a front end may check
 * further (the add-in allows http:// only for this computer). Or the problem, with a sentence
 * that says it (`"must be an http:// or https:// URL"`).
 *
 * ## Example
 * ```ts
 * const parsed: ParsedServiceUrl = parseServiceUrl("https://api.example.com/v1/");
 * if (parsed.ok) console.log(parsed.url); // "https://api.example.com/v1"
 * ```
 */
export type ParsedServiceUrl =
  | { ok: true; url: string; hostname: string; protocol: "http:" | "https:" }
  | { ok: false; problem: ServiceUrlProblem; says: string };

const PROBLEMS: Record<ServiceUrlProblem, string> = {
  notAbsolute: "is not an absolute URL (https://host/path)",
  notHttp: "must be an http:// or https:// URL",
  // A key pasted into the address would end up in every request line and log.
  hasCredentials: "must not hold a user name or password",
  hasQueryOrFragment:
    "must not hold a query string or fragment: the API's paths are appended to it " +
    "(/api?tenant=1 would become /api?tenant=1/spells/start)",
};

/**
 * The one rule for a service address (`baseUrl`, `pollBaseUrl`), shared by the client, the
 * add-in's settings and the command line: an absolute http(s) URL without user name, password,
 * query string or fragment, normalised by the URL parser (surrounding spaces, host case), its
 * trailing slashes removed so that `/spells/start` can be appended.
 *
 * ```
 * " https://API.example.com/v1/ "  ──▶  { ok: true, url: "https://api.example.com/v1" }
 * "https://host/api?tenant=1"      ──▶  { ok: false, problem: "hasQueryOrFragment", says }
 * ```
 *
 * ## Example
 * ```ts
 * const parsed = parseServiceUrl(process.env.SPELL_BASE_URL);
 * if (!parsed.ok) throw new Error(`SPELL_BASE_URL ${parsed.says}`);
 * ```
 * @param value what was given (any type: a setting, a flag, an option)
 * @return the normalised address, or what is wrong with it
 */
export function parseServiceUrl(value: unknown): ParsedServiceUrl {
  let url: URL;
  try {
    if (typeof value !== "string" && !(value instanceof URL)) throw new TypeError("no address");
    url = new URL(String(value).trim());
  } catch {
    return refused("notAbsolute");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refused("notHttp");
  if (url.username !== "" || url.password !== "") return refused("hasCredentials");
  // Also an empty "?" or "#", which `search` and `hash` do not show but `href` keeps.
  if (url.href.includes("?") || url.href.includes("#")) return refused("hasQueryOrFragment");
  return {
    ok: true,
    url: url.href.replace(/\/+$/, ""),
    hostname: url.hostname,
    protocol: url.protocol,
  };
}

function refused(problem: ServiceUrlProblem): ParsedServiceUrl {
  return { ok: false, problem, says: PROBLEMS[problem] };
}
