/**
 * The rules that keep a production build of the add-in from shipping development leftovers
 * (webpack.config.js applies them when the mode is not development):
 * - `productionAddresses(env)`: SPELLRUN_ADDIN_URL is required, https, and not this computer;
 *   SPELL_BASE_URL / SPELL_POLL_BASE_URL are both set or both unset, and https when set. A wrong
 *   value stops the build with a message saying what to set.
 * - `productionIdentity(env)`: the manifest's identity. SPELLRUN_ADDIN_ID is required, a GUID,
 *   and not the repository's (`DEV_ADDIN_ID`, the development manifest's: an organisation's
 *   add-in must not share its Id with every other build of this repository, nor with a developer's
 *   sideloaded copy); SPELLRUN_PROVIDER_NAME and SPELLRUN_ADDIN_VERSION (n.n.n.n) are optional.
 * - `rewriteManifest(xml, devUrl, addinUrl, identity)`: every dev URL becomes the add-in's, the
 *   dev `<AppDomains>` (the dev server's origin) goes (the add-in's own origin needs none), and so
 *   do the comments (notes for developers, which name the dev server); `<Id>`, `<ProviderName>`
 *   and `<Version>` come from the identity.
 * - `productionSignIn(env, addinUrl)`: organisation mode's `<WebApplicationInfo>` (Office's sign-in
 *   to the organisation's Entra ID app registration), made when SPELLRUN_ENTRA_CLIENT_ID (a GUID)
 *   is set: `<Resource>` is `api://<add-in host>/<client id>` unless SPELLRUN_ENTRA_RESOURCE says
 *   otherwise, `<Scopes>` from SPELLRUN_ENTRA_SCOPES (comma list, default `openid,profile`).
 *   `rewriteManifest` puts it last in the outer `<VersionOverrides>`, as the schema wants.
 * - `NoLocalhostPlugin`: the build fails when `localhost`, `127.0.0.1` or `[::1]` appears in any
 *   file of the folder to host (source maps are written beside it and not checked).
 */
const { URL } = require("url");
const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;
const LEFTOVER = /localhost|127\.0\.0\.1|\[::1\]/i;
/** The `<Id>` of the repository's manifest.xml: the development add-in's, never a production one's. */
const DEV_ADDIN_ID = "5d1f6c1e-8f0a-4b59-9d44-2f3c7a3b9e21";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MANIFEST_VERSION = /^\d{1,5}(?:\.\d{1,5}){0,3}$/;

/** A refusal of the production build: webpack-cli prints it as one line, without a stack. */
class ProductionBuildError extends Error {
  name = "ProductionBuildError";
  constructor(message) {
    super(`The production build stopped: ${message}`);
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** One https URL that is not this computer, normalised to end with "/" when `trailingSlash`. */
function checkedHttpsUrl(variable, value, { trailingSlash }) {
  let parsed;
  try {
    parsed = new URL(value);
  } catch {
    throw new ProductionBuildError(`${variable} must be an absolute https:// URL, got "${value}".`);
  }
  if (parsed.protocol !== "https:") {
    throw new ProductionBuildError(
      `${variable} must use https:// (got ${parsed.protocol}//…): Excel loads add-ins, and lets them call, https addresses only.`
    );
  }
  if (LOOPBACK.test(parsed.hostname)) {
    throw new ProductionBuildError(
      `${variable} points at this computer (${parsed.hostname}): a production build is for your users' machines. For local work use npm start.`
    );
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ProductionBuildError(
      `${variable} must not hold a user name, password, query or fragment.`
    );
  }
  return trailingSlash ? parsed.href.replace(/\/?$/, "/") : parsed.href.replace(/\/+$/, "");
}

/**
 * The addresses of a production build, checked.
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ addinUrl: string, serviceBaseUrl: string, servicePollBaseUrl: string }}
 */
function productionAddresses(env) {
  if (!env.SPELLRUN_ADDIN_URL) {
    throw new ProductionBuildError(
      "Set SPELLRUN_ADDIN_URL to the https:// address the add-in will be hosted at, e.g. " +
        "SPELLRUN_ADDIN_URL=https://excel-spells.example.com/ npm run build (see docs/deploy.md). " +
        "For local work use npm start or npm run build:dev."
    );
  }
  const addinUrl = checkedHttpsUrl("SPELLRUN_ADDIN_URL", env.SPELLRUN_ADDIN_URL, {
    trailingSlash: true,
  });
  const base = env.SPELL_BASE_URL || "";
  const poll = env.SPELL_POLL_BASE_URL || "";
  if (Boolean(base) !== Boolean(poll)) {
    throw new ProductionBuildError(
      "Set both SPELL_BASE_URL and SPELL_POLL_BASE_URL (the add-in calls the service directly), or neither (it goes through the add-in's host)."
    );
  }
  return {
    addinUrl,
    serviceBaseUrl: base && checkedHttpsUrl("SPELL_BASE_URL", base, { trailingSlash: false }),
    servicePollBaseUrl:
      poll && checkedHttpsUrl("SPELL_POLL_BASE_URL", poll, { trailingSlash: false }),
  };
}

/**
 * The manifest for the add-in's host.
 * @param {string} xml the manifest with dev URLs
 * @param {string} devUrl the dev server's URL, ending with "/"
 * @param {string} addinUrl the add-in's URL, ending with "/"
 * @param {{ id: string, providerName: string, version: string }} [identity] `<Id>`, `<ProviderName>`, `<Version>`
 * @param {{ id: string, resource: string, scopes: string[] }} [webApplicationInfo] organisation mode's sign-in
 */
function rewriteManifest(xml, devUrl, addinUrl, identity, webApplicationInfo) {
  const withSignIn = webApplicationInfo ? withWebApplicationInfo(xml, webApplicationInfo) : xml;
  const withIdentity = identity
    ? withSignIn
        .replace(/<Id>[^<]*<\/Id>/, `<Id>${identity.id}</Id>`)
        .replace(/<Version>[^<]*<\/Version>/, `<Version>${identity.version}</Version>`)
        .replace(
          /<ProviderName>[^<]*<\/ProviderName>/,
          `<ProviderName>${escapeXml(identity.providerName)}</ProviderName>`
        )
    : withSignIn;
  return withIdentity
    .replace(/<!--[\s\S]*?-->\s*/g, "")
    .split(devUrl)
    .join(addinUrl)
    .replace(/\s*<AppDomains>\s*<AppDomain>[^<]*<\/AppDomain>\s*<\/AppDomains>/, "");
}

/**
 * The manifest identity of a production build, checked.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} packageVersion the add-in's package version (the default `<Version>`, with ".0")
 * @returns {{ id: string, providerName: string, version: string }}
 */
function productionIdentity(env, packageVersion) {
  const id = (env.SPELLRUN_ADDIN_ID || "").trim();
  if (!id) {
    throw new ProductionBuildError(
      "Set SPELLRUN_ADDIN_ID to your add-in's own GUID (make one once, e.g. with " +
        '`node -p "crypto.randomUUID()"`, and keep it for every release; see docs/deploy.md).'
    );
  }
  if (!GUID.test(id)) {
    throw new ProductionBuildError(`SPELLRUN_ADDIN_ID must be a GUID, got "${id}".`);
  }
  if (id.toLowerCase() === DEV_ADDIN_ID) {
    throw new ProductionBuildError(
      "SPELLRUN_ADDIN_ID is the repository's development Id, shared by every copy of this repository: make your own GUID."
    );
  }
  const version = (env.SPELLRUN_ADDIN_VERSION || `${packageVersion}.0`).trim();
  if (!MANIFEST_VERSION.test(version)) {
    throw new ProductionBuildError(
      `SPELLRUN_ADDIN_VERSION must be up to four numbers joined by dots (e.g. 1.4.0.0), got "${version}".`
    );
  }
  const providerName = (env.SPELLRUN_PROVIDER_NAME || "spellrun").trim();
  if (providerName.length > 250) {
    throw new ProductionBuildError("SPELLRUN_PROVIDER_NAME must be at most 250 characters.");
  }
  return { id: id.toLowerCase(), providerName, version };
}

/** The manifest with `<WebApplicationInfo>` (a former one replaced) last in `<VersionOverrides>`. */
function withWebApplicationInfo(xml, { id, resource, scopes }) {
  const element = [
    "    <WebApplicationInfo>",
    `      <Id>${escapeXml(id)}</Id>`,
    `      <Resource>${escapeXml(resource)}</Resource>`,
    "      <Scopes>",
    ...scopes.map((scope) => `        <Scope>${escapeXml(scope)}</Scope>`),
    "      </Scopes>",
    "    </WebApplicationInfo>",
  ].join("\n");
  const without = xml.replace(/\s*<WebApplicationInfo>[\s\S]*?<\/WebApplicationInfo>/, "");
  const end = without.lastIndexOf("</VersionOverrides>");
  if (end < 0) throw new ProductionBuildError("manifest.xml has no <VersionOverrides>.");
  const before = without.slice(0, end).replace(/\s*$/, "");
  return `${before}\n${element}\n  ${without.slice(end)}`;
}

/**
 * Organisation mode's `<WebApplicationInfo>`, or `undefined` without SPELLRUN_ENTRA_CLIENT_ID.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} addinUrl the add-in's checked https URL
 * @returns {{ id: string, resource: string, scopes: string[] } | undefined}
 */
function productionSignIn(env, addinUrl) {
  const id = (env.SPELLRUN_ENTRA_CLIENT_ID || "").trim().toLowerCase();
  if (!id) return undefined;
  if (!GUID.test(id)) {
    throw new ProductionBuildError(
      `SPELLRUN_ENTRA_CLIENT_ID must be the app registration's Application (client) ID, a GUID, got "${id}".`
    );
  }
  const resource = (env.SPELLRUN_ENTRA_RESOURCE || `api://${new URL(addinUrl).host}/${id}`).trim();
  if (!/^api:\/\/[^\s/]+(?:\/[^\s]*)?$/.test(resource) || !resource.includes(id)) {
    throw new ProductionBuildError(
      `SPELLRUN_ENTRA_RESOURCE must be the app registration's Application ID URI, api://<add-in host>/<client id>, got "${resource}".`
    );
  }
  const scopes = (env.SPELLRUN_ENTRA_SCOPES || "openid,profile")
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !/^[\w.:/-]{1,200}$/.test(scope))) {
    throw new ProductionBuildError(
      `SPELLRUN_ENTRA_SCOPES must be a comma list of scope names, got "${env.SPELLRUN_ENTRA_SCOPES}".`
    );
  }
  return { id, resource, scopes };
}

function escapeXml(text) {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Fails the compilation when a file to host holds a loopback address. */
class NoLocalhostPlugin {
  apply(compiler) {
    const { Compilation, WebpackError } = compiler.webpack;
    compiler.hooks.thisCompilation.tap("NoLocalhostPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "NoLocalhostPlugin", stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          for (const [name, source] of Object.entries(assets)) {
            if (/\.(?:map|br|gz)$/.test(name) || name.startsWith("../")) continue;
            const content = source.source();
            const text = typeof content === "string" ? content : content.toString("latin1");
            const found = LEFTOVER.exec(text);
            if (found) {
              const around = text.slice(Math.max(0, found.index - 60), found.index + 40);
              compilation.errors.push(
                new WebpackError(
                  `${name} holds "${found[0]}", a development leftover that must not reach users: …${around}…`
                )
              );
            }
          }
        }
      );
    });
  }
}

module.exports = {
  DEV_ADDIN_ID,
  NoLocalhostPlugin,
  productionAddresses,
  productionIdentity,
  productionSignIn,
  rewriteManifest,
  ProductionBuildError,
};
