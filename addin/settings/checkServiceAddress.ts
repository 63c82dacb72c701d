import { parseServiceUrl } from "spellrun";
import { SettingsError } from "../SettingsError.js";

// Defined by webpack: false in a production build, whose folder must hold no loopback address.
declare const SPELLRUN_LOOPBACK_HTTP: boolean | undefined;

/** http:// to this computer is accepted (the emulator) except in a production build. */
const loopbackHttpAllowed =
  typeof SPELLRUN_LOOPBACK_HTTP === "boolean" ? SPELLRUN_LOOPBACK_HTTP : true;

/**
 * Checks a service address (`baseUrl` or `pollBaseUrl`) as Settings would save it, and returns it
 * normalised (no trailing slash). Only https:// addresses work from the add-in: its page is
 * served over https, and a browser blocks an https page's calls to a plain-http host (mixed
 * content), so an http:// address would only fail later as "Could not reach". The exception is
 * this computer (localhost, 127.x.x.x, [::1]), which browsers treat as secure (the local
 * emulator).
 *
 * ## Example
 * ```ts
 * checkServiceAddress("baseUrl", "https://api.example.com/v1/"); // "https://api.example.com/v1"
 * checkServiceAddress("baseUrl", "http://api.example.com");      // throws SettingsError
 * ```
 *
 * @param name Which address: `baseUrl` or `pollBaseUrl`.
 * @param value What the user entered.
 * @return The address, normalised.
 * @throws SettingsError saying what is wrong and what works instead.
 */
export function checkServiceAddress(name: "baseUrl" | "pollBaseUrl", value: unknown): string {
  const label = ADDRESS_LABELS[name];
  if (typeof value === "string" && value.trim() === "") {
    throw new SettingsError(
      name,
      `Enter the ${label}: the https:// address of the Spell Run service.`
    );
  }
  const parsed = parseServiceUrl(value);
  if (!parsed.ok) {
    if (parsed.problem === "notAbsolute" || parsed.problem === "notHttp") {
      throw new SettingsError(name, `The ${label} must be an https:// address.`);
    }
    // A key pasted into the address would end up in every request line and log.
    throw new SettingsError(
      name,
      `The ${label} must not contain a user name, password, query or fragment.`
    );
  }
  if (parsed.protocol === "http:" && !(loopbackHttpAllowed && isLoopbackHost(parsed.hostname))) {
    throw new SettingsError(
      name,
      `The ${label} must use https://: the add-in runs on an https page, which may not call an http:// address on another computer (the browser blocks it).` +
        (loopbackHttpAllowed ? " http:// works only for this computer (localhost)." : "")
    );
  }
  return parsed.url;
}

/**
 * The hint under the address fields of Settings: which addresses work (a production build takes
 * https only; development also http:// to this computer, the emulator).
 *
 * ## Example
 * ```ts
 * element("p", { class: "hint" }, SERVICE_ADDRESS_HINT);
 * ```
 */
export const SERVICE_ADDRESS_HINT = loopbackHttpAllowed
  ? "https:// addresses; http:// only for this computer (localhost)."
  : "https:// addresses.";

/** How the settings form names each address. */
const ADDRESS_LABELS = { baseUrl: "Base URL", pollBaseUrl: "Poll base URL" } as const;

/** This computer: names and addresses browsers treat as potentially trustworthy over http. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}
