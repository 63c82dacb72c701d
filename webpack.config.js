/**
 * Builds the Excel add-in: the custom functions (functions/) and the task pane (taskpane/), which
 * share settings, client and result store (addin/), in one
 * shared-runtime page (taskpane.html loads both bundles), plus functions.json generated from the
 * functions' @customfunction JSDoc, the manifest and the icons. Output: dist/addin/.
 *
 * - `npm run build`      production build (Office.js from Microsoft's CDN, as the Store requires).
 * - `npm run dev-server` https://localhost:3000 with the Office dev certificates; Office.js is
 *                        served from @microsoft/office-js so the page also loads on a closed network.
 * - SPELLRUN_ADDIN_URL   where the production add-in is hosted; the manifest's dev URLs are rewritten.
 * - SPELL_BASE_URL, SPELL_POLL_BASE_URL: the service the add-in's settings start with. Unset in
 *   development, they are the emulator behind the dev server's proxy (/spell-api, /spell-poll):
 *   the https page cannot call the plain-http emulator directly (mixed content), and the emulator
 *   keeps its poll host on its own port behind the proxy. The API key is never built in.
 */
const path = require("path");
const fs = require("fs");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { DefinePlugin } = require("webpack");
const { playgroundConfig } = require("./playground/webpack.config.cjs");

const devUrl = "https://localhost:3000/";
const devServerPort = Number(process.env.SPELLRUN_DEV_SERVER_PORT || 3000);
const emulatorPort = Number(process.env.SPELL_EMULATOR_PORT || 3001);
const emulatorPollPort = Number(process.env.SPELL_EMULATOR_POLL_PORT || 3002);
const cdnOfficeJs = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

/** The service addresses the add-in's settings start with (see addin/settings.ts). */
function serviceDefaults(dev) {
  return {
    SPELLRUN_DEFAULT_BASE_URL: JSON.stringify(
      process.env.SPELL_BASE_URL || (dev ? `https://localhost:${devServerPort}/spell-api` : "")
    ),
    SPELLRUN_DEFAULT_POLL_BASE_URL: JSON.stringify(
      process.env.SPELL_POLL_BASE_URL ||
        (dev ? `https://localhost:${devServerPort}/spell-poll` : "")
    ),
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
  // The playground page (playground/) is served by the dev server only, never built for production.
  if (!dev || !env.WEBPACK_SERVE) return addin;
  const emulatorKey = process.env.SPELL_BASE_URL
    ? ""
    : process.env.SPELL_EMULATOR_API_KEY || "spellrun-dev-key";
  return [addin, playgroundConfig(__dirname, { emulatorKey, defines: serviceDefaults(dev) })];
};

async function addinConfig(env, options) {
  const dev = options.mode === "development";
  const addinUrl = (process.env.SPELLRUN_ADDIN_URL || devUrl).replace(/\/?$/, "/");
  return {
    devtool: "source-map",
    entry: {
      functions: "./functions/functions.ts",
      // The task pane reuses the functions bundle's copy of addin/ (one shared client, one result store,
      // one set of error classes in the shared runtime); functions.js stays loadable on its own.
      taskpane: { import: "./taskpane/taskpane.ts", dependOn: "functions" },
    },
    output: {
      path: path.resolve(__dirname, "dist", "addin"),
      filename: "[name].js",
      clean: true,
    },
    resolve: {
      extensions: [".ts", ".js"],
      extensionAlias: { ".js": [".ts", ".js"] },
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
      new DefinePlugin(serviceDefaults(dev)),
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./functions/functions.ts",
      }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./taskpane/taskpane.html",
        chunks: ["functions", "taskpane"],
        templateParameters: { officeJsUrl: dev ? "/office-js/office.js" : cdnOfficeJs },
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) => content.toString().split(devUrl).join(addinUrl),
          },
        ],
      }),
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
      proxy: [
        {
          context: ["/spell-api"],
          target: `http://127.0.0.1:${emulatorPort}`,
          pathRewrite: { "^/spell-api": "" },
        },
        {
          context: ["/spell-poll"],
          target: `http://127.0.0.1:${emulatorPollPort}`,
          pathRewrite: { "^/spell-poll": "" },
        },
      ],
      server: { type: "https", options: env.WEBPACK_BUILD ? undefined : await httpsOptions() },
      port: devServerPort,
      host: "localhost",
      client: { overlay: { warnings: false } },
    },
  };
}
