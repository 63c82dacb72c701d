import { readFileSync } from "node:fs";
import path from "node:path";
import type { OrganisationOptions } from "./OrganisationOptions";

/**
 * Reads the organisation mode's configuration file (JSON, the fields of `OrganisationOptions`
 * flattened; relative file names are relative to the file). Throws an Error naming the field
 * to fix.
 *
 * ## Example
 * ```json
 * {
 *   "tenantId": "…", "clientId": "…",
 *   "spellKeyFile": "/run/secrets/spell-key",
 *   "adminGroup": "…", "database": "/var/lib/spellrun/ledger",
 *   "budgetsFile": "budgets.json"
 * }
 * ```
 *
 * @param file The configuration file.
 * @return The options.
 */
export function readOrganisationConfig(file: string): OrganisationOptions {
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const folder = path.dirname(path.resolve(file));
  const text = (name: string, required = true): string | undefined => {
    const value = config[name];
    if (value === undefined && !required) return undefined;
    if (typeof value !== "string" || value === "") {
      throw new Error(`${file}: "${name}" must be a non-empty string.`);
    }
    return value;
  };
  const fileName = (name: string) => {
    const value = text(name, false);
    return value === undefined ? undefined : path.resolve(folder, value);
  };
  const tenantId = text("tenantId")!;
  const clientId = text("clientId")!;
  const authority = (text("authority", false) ?? "https://login.microsoftonline.com").replace(
    /\/+$/,
    ""
  );
  const keyFile = fileName("spellKeyFile");
  const keyVariable = text("spellKeyEnvironment", false);
  if (Boolean(keyFile) === Boolean(keyVariable)) {
    throw new Error(`${file}: give one of "spellKeyFile" or "spellKeyEnvironment".`);
  }
  const keyHeader = text("keyHeader", false);
  if (keyHeader !== undefined && keyHeader !== "authorization" && keyHeader !== "x-api-key") {
    throw new Error(`${file}: "keyHeader" must be "authorization" or "x-api-key".`);
  }
  const database = text("database")!;
  const retentionDays = config.retentionDays;
  if (
    retentionDays !== undefined &&
    (typeof retentionDays !== "number" || !Number.isInteger(retentionDays) || retentionDays < 1)
  ) {
    throw new Error(`${file}: "retentionDays" must be a whole number of days (1 or more).`);
  }
  const scopes = config.scopes;
  if (
    scopes !== undefined &&
    !(Array.isArray(scopes) && scopes.every((s) => typeof s === "string"))
  ) {
    throw new Error(`${file}: "scopes" must be a list of strings.`);
  }
  // The development sign-in signs a token for any name without a password: only ever the
  // local issuer on this machine, never a reachable issuer in production.
  const devTokenUrl = text("devTokenUrl", false);
  if (devTokenUrl !== undefined && !isLoopbackUrl(devTokenUrl)) {
    throw new Error(
      `${file}: "devTokenUrl" must be the local issuer on a loopback address (http://127.0.0.1:…); ` +
        "it signs anyone in without a password, so leave it out in production."
    );
  }
  return {
    signIn: {
      tenantId,
      issuer: text("issuer", false) ?? `${authority}/${tenantId}/v2.0`,
      jwksUrl: text("jwksUrl", false) ?? `${authority}/${tenantId}/discovery/v2.0/keys`,
      audience: text("audience", false) ?? clientId,
    },
    clientId,
    authority,
    ...(scopes ? { scopes: scopes as string[] } : {}),
    spellKey: keyFile ? { file: keyFile } : { environment: keyVariable! },
    ...(keyHeader ? { keyHeader } : {}),
    adminGroup: text("adminGroup")!,
    // A folder for PGlite is relative to the file too; a URL stays as it is.
    database: /^postgres(ql)?:\/\//i.test(database) ? database : path.resolve(folder, database),
    ...(fileName("budgetsFile") ? { budgetsFile: fileName("budgetsFile") } : {}),
    ...(fileName("groupsFile") ? { groupsFile: fileName("groupsFile") } : {}),
    ...(typeof retentionDays === "number" ? { retentionDays } : {}),
    ...(devTokenUrl ? { devTokenUrl } : {}),
  };
}

function isLoopbackUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return (
    url.hostname === "localhost" ||
    url.hostname === "[::1]" ||
    /^127(\.\d{1,3}){3}$/.test(url.hostname)
  );
}
