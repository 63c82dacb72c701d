/**
 * Builds the Excel add-in: the custom functions (functions/) and the task pane (taskpane/), which
 * share settings, client and result store (addin/), in one
 * shared-runtime page (taskpane.html loads both bundles), plus functions.json generated from the
 * functions' @customfunction JSDoc, the manifest and the icons. Output: dist/addin/.
 *
 * - `npm run build`      production build (Office.js from Microsoft's CDN, as the Store requires).
 * - `npm run dev-server` https://localhost:3000 with the Office dev certificates; Office.js is
 *                        served from @microsoft/office-js so the page also loads on a closed network.
 * - SPELLRUN_ADDIN_URL   where the production add-in is hosted (required, https, not this computer);
 *                        the manifest's dev URLs are rewritten to it.
 * - SPELLRUN_ADDIN_ID    the production manifest's <Id> (required, a GUID, not the repository's
 *                        development Id); SPELLRUN_PROVIDER_NAME, SPELLRUN_ADDIN_VERSION its
 *                        <ProviderName> and <Version> (default: spellrun, the package version).
 * - SPELLRUN_ENTRA_CLIENT_ID  organisation mode: the manifest's <WebApplicationInfo> for this
 *                        Entra ID app registration (SPELLRUN_ENTRA_RESOURCE, SPELLRUN_ENTRA_SCOPES).
 * - Production bundles are named by content hash (functions.<hash>.js), with functions.js kept
 *   for the manifest, and written pre-compressed (.br, .gz) beside them (scripts/releaseFiles.cjs).
 * - SPELL_BASE_URL, SPELL_POLL_BASE_URL: unset, the add-in reaches the service "through the
 *   add-in's host" (/spell-api, /spell-poll of its own origin: the dev server's proxy to the
 *   emulator in development, the add-in server in production), so the service needs no CORS. Set
 *   (https), the add-in calls them "directly" and the service must allow CORS. The API key is
 *   never built in.
 *
 * A production build cannot ship dev leftovers (productionBuildRules.cjs): it refuses a missing,
 * http:// or loopback add-in URL and service URLs that are not https, fails when `localhost`
 * appears anywhere in the folder to host, and writes source maps beside it (dist/addin-sourcemaps)
 * for error tracking, not into it.
 */
const path = require("path");
const fs = require("fs");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { DefinePlugin } = require("webpack");
const { contentSecurityPolicy } = require("./scripts/contentSecurityPolicy.cjs");
const { playgroundConfig, staticPlaygroundConfigs } = require("./playground/webpack.config.cjs");
const {
  NoLocalhostPlugin,
  productionAddresses,
  productionIdentity,
  productionSignIn,
  rewriteManifest,
} = require("./scripts/productionBuildRules.cjs");
const { PrecompressPlugin, StableScriptAliasPlugin } = require("./scripts/releaseFiles.cjs");
// The service's endpoints and the add-in host's forwarding paths: one table, in the core.
const { require: requireTypeScript } = require("tsx/cjs/api");
const { FORWARDING_PREFIXES } = requireTypeScript(
  path.join(__dirname, "src", "http", "serviceEndpoints.ts"),
  __filename
);

const devUrl = "https://localhost:3000/";
const devServerPort = Number(process.env.SPELLRUN_DEV_SERVER_PORT || 3000);
const emulatorPort = Number(process.env.SPELL_EMULATOR_PORT || 3001);
const emulatorPollPort = Number(process.env.SPELL_EMULATOR_POLL_PORT || 3002);
const cdnOfficeJs = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

/** The service addresses the add-in's settings start with (see addin/settings/defaultSettings.ts). */
/**
 * The playground's service defaults (dev server only): the emulator behind the dev server's
 * proxy, or SPELL_BASE_URL / SPELL_POLL_BASE_URL, called as addresses ("direct").
 */
function serviceDefaults(dev) {
  return {
    SPELLRUN_DEFAULT_BASE_URL: JSON.stringify(
      process.env.SPELL_BASE_URL ||
        (dev ? `https://localhost:${devServerPort}${FORWARDING_PREFIXES.base}` : "")
    ),
    SPELLRUN_DEFAULT_POLL_BASE_URL: JSON.stringify(
      process.env.SPELL_POLL_BASE_URL ||
        (dev ? `https://localhost:${devServerPort}${FORWARDING_PREFIXES.poll}` : "")
    ),
    SPELLRUN_DEFAULT_SERVICE_ROUTE: JSON.stringify("direct"),
    SPELLRUN_LOOPBACK_HTTP: JSON.stringify(dev),
  };
}

/**
 * The add-in's service defaults: named addresses are called directly; none means through the
 * add-in's host (/spell-api, /spell-poll of its own origin: the dev server's proxy, the add-in
 * server). http:// to this computer (the emulator) is accepted in development only.
 */
function addinServiceDefaults(dev, named, serviceBaseUrl, servicePollBaseUrl) {
  return {
    SPELLRUN_DEFAULT_BASE_URL: JSON.stringify(serviceBaseUrl),
    SPELLRUN_DEFAULT_POLL_BASE_URL: JSON.stringify(servicePollBaseUrl),
    SPELLRUN_DEFAULT_SERVICE_ROUTE: JSON.stringify(named ? "direct" : "addinHost"),
    SPELLRUN_LOOPBACK_HTTP: JSON.stringify(dev),
  };
}

/** The Office dev certificates (office-addin-dev-certs), generated on first use, never installed silently. */
async function httpsOptions() {
  const devCerts = require("office-addin-dev-certs/lib/defaults");
  if (!fs.existsSync(devCerts.localhostCertificatePath)) {
    const { generateCertificates } = require("office-addin-dev-certs/lib/generate");
    await generateCertificates();
    console.log(
      `Generated Office dev certificates in ${devCerts.certificateDirectory}. ` +
        "Trust them once with `npx office-addin-dev-certs install`."
    );
  }
  return {
    ca: fs.readFileSync(devCerts.caCertificatePath),
    key: fs.readFileSync(devCerts.localhostKeyPath),
    cert: fs.readFileSync(devCerts.localhostCertificatePath),
  };
}

module.exports = async (env, options) => {
  const dev = options.mode === "development";
  const addin = await addinConfig(env, options);
  // `npm run build:playground`: the static playground (emulator in the page), see playground/.
  if (dev && env.SPELLRUN_PLAYGROUND_STATIC) {
    return staticPlaygroundConfigs(__dirname, addin, addinServiceDefaults(dev, false, "", ""));
  }
  // The playground page (playground/) is served by the dev server only, never built for production.
  if (!dev || !env.WEBPACK_SERVE) return addin;
  const emulatorKey = process.env.SPELL_BASE_URL
    ? ""
    : process.env.SPELL_EMULATOR_API_KEY || "spellrun-dev-key";
  return [addin, playgroundConfig(__dirname, { emulatorKey, defines: serviceDefaults(dev) })];
};

async function addinConfig(env, options) {
  const dev = options.mode === "development";
  // Stops the build with its message on a missing, http:// or loopback add-in URL or a service
  // URL that is not https.
  const production = dev ? undefined : productionAddresses(process.env);
  // Stops the build without SPELLRUN_ADDIN_ID, or with the repository's (development) Id.
  const identity = dev
    ? undefined
    : productionIdentity(process.env, require("./package.json").version);
  const addinUrl = production ? production.addinUrl : devUrl;
  // Organisation mode's <WebApplicationInfo>, when SPELLRUN_ENTRA_CLIENT_ID is set.
  const signIn = production ? productionSignIn(process.env, addinUrl) : undefined;
  const named = production
    ? Boolean(production.serviceBaseUrl)
    : Boolean(process.env.SPELL_BASE_URL);
  // Development: the emulator behind the dev server's proxy, also as the "directly" addresses.
  const serviceBaseUrl = production
    ? production.serviceBaseUrl
    : process.env.SPELL_BASE_URL || `https://localhost:${devServerPort}${FORWARDING_PREFIXES.base}`;
  const servicePollBaseUrl = production
    ? production.servicePollBaseUrl
    : process.env.SPELL_POLL_BASE_URL ||
      `https://localhost:${devServerPort}${FORWARDING_PREFIXES.poll}`;
  return {
    context: __dirname,
    // Production: maps without a reference in the bundles, written beside the folder to host.
    devtool: dev ? "source-map" : "hidden-source-map",
    entry: {
      functions: "./functions/functions.ts",
      // The task pane reuses the functions bundle's copy of addin/ (one shared client, one result store,
      // one set of error classes in the shared runtime); functions.js stays loadable on its own.
      taskpane: { import: "./taskpane/taskpane.ts", dependOn: "functions" },
    },
    output: {
      path: path.resolve(__dirname, "dist", "addin"),
      // Production: content-hashed names (taskpane.html names them), so a release adds files and
      // an open pane never mixes one release's scripts with another's; the dev server, the
      // playground and the specs keep the plain names.
      filename: dev ? "[name].js" : "[name].[contenthash].js",
      sourceMapFilename: dev ? "[file].map" : "../addin-sourcemaps/[file].map",
      clean: true,
    },
    resolve: {
      extensions: [".ts", ".js"],
      extensionAlias: { ".js": [".ts", ".js"] },
      // The front ends import the core by its package name: its sources, as tsconfig's paths.
      alias: { spellrun$: path.resolve(__dirname, "src", "index.ts") },
      // rxjs's ES2015 build (classes, no tslib downlevel helpers), not its ES5 default: the
      // bundles are ES2020 anyway (tsconfig), and this one is smaller.
      conditionNames: ["es2015", "..."],
    },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: { loader: "ts-loader", options: { transpileOnly: true } },
        },
        { test: /\.css$/, type: "asset/source" },
      ],
    },
    plugins: [
      new DefinePlugin(addinServiceDefaults(dev, named, serviceBaseUrl, servicePollBaseUrl)),
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./functions/functions.ts",
      }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./taskpane/taskpane.html",
        chunks: ["functions", "taskpane"],
        templateParameters: {
          officeJsUrl: dev ? "/office-js/office.js" : cdnOfficeJs,
          contentSecurityPolicy: contentSecurityPolicy({
            dev,
            serviceUrls: [
              process.env.SPELL_BASE_URL,
              process.env.SPELL_POLL_BASE_URL,
              ...(process.env.SPELLRUN_CONNECT_SRC || "").split(/\s+/),
            ],
          }),
        },
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) =>
              dev
                ? content.toString()
                : rewriteManifest(content.toString(), devUrl, addinUrl, identity, signIn),
          },
        ],
      }),
      ...(dev
        ? []
        : [
            // The manifest's Functions.Script.Url names functions.js in every release.
            new StableScriptAliasPlugin({ chunk: "functions", filename: "functions.js" }),
            new PrecompressPlugin(),
            new NoLocalhostPlugin(),
          ]),
    ],
    performance: { maxAssetSize: 1_000_000, maxEntrypointSize: 1_000_000 },
    devServer: {
      static: [
        {
          directory: path.join(__dirname, "node_modules", "@microsoft", "office-js", "dist"),
          publicPath: "/office-js",
        },
      ],
      headers: { "Access-Control-Allow-Origin": "*" },
      proxy: process.env.SPELLRUN_DEV_GATEWAY_PORT
        ? [
            // `SPELLRUN_ORGANISATION=1 npm start`: every call goes through the add-in server in
            // organisation mode (sign-in, budgets, ledger), which forwards to the emulator.
            {
              context: [
                FORWARDING_PREFIXES.base,
                FORWARDING_PREFIXES.poll,
                "/org",
                "/admin",
                "/metrics",
              ],
              target: `http://127.0.0.1:${process.env.SPELLRUN_DEV_GATEWAY_PORT}`,
            },
          ]
        : [
            {
              context: [FORWARDING_PREFIXES.base],
              target: `http://127.0.0.1:${emulatorPort}`,
              pathRewrite: { [`^${FORWARDING_PREFIXES.base}`]: "" },
            },
            {
              context: [FORWARDING_PREFIXES.poll],
              target: `http://127.0.0.1:${emulatorPollPort}`,
              pathRewrite: { [`^${FORWARDING_PREFIXES.poll}`]: "" },
            },
          ],
      server: { type: "https", options: env.WEBPACK_BUILD ? undefined : await httpsOptions() },
      port: devServerPort,
      host: "localhost",
      // The playground page shows its own errors in its banner (playground/pageErrors.ts): the
      // full-screen overlay would blank the page a newcomer is trying. The filter runs in the page.
      /* global window */
      client: {
        overlay: {
          warnings: false,
          errors: () => !window.location.pathname.endsWith("/playground.html"),
          runtimeErrors: () => !window.location.pathname.endsWith("/playground.html"),
        },
      },
    },
  };
}
