/**
 * Builds the playground page (playground.html + playground.js) for the dev server only: the root
 * webpack.config.js adds this compilation in development mode, so `npm start` serves the page next
 * to the add-in (https://localhost:3000/playground.html), and the production add-in build never
 * contains it. The page loads the add-in's own functions.js, functions.json and taskpane.js from
 * the same server.
 */
const path = require("path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { DefinePlugin, NormalModuleReplacementPlugin } = require("webpack");
const { specWebpackConfig } = require("../scripts/browserBuild.cjs");

/**
 * @param {string} root The repository's root.
 * @param {{ emulatorKey: string, defines: Record<string, string>, inPageEmulator?: boolean }}
 *   options The emulator's development key ("" when the dev server points at a real service: the
 *   page then starts without a key), the add-in build's service addresses (the page saves the
 *   first settings), and whether the emulator runs in the page (the static build).
 */
function playgroundConfig(root, { emulatorKey, defines, inPageEmulator = false }) {
  return {
    name: "playground",
    mode: "development",
    devtool: "source-map",
    context: root,
    entry: { playground: "./playground/playground.ts" },
    output: { path: path.join(root, "dist", "playground"), filename: "[name].js", publicPath: "/" },
    // ts-loader, `.js` resolved to `.ts`, CSS as text, the office-addin-manifest shim: as the specs.
    ...specWebpackConfig(root),
    plugins: [
      new DefinePlugin({
        ...defines,
        SPELLRUN_PLAYGROUND_EMULATOR_KEY: JSON.stringify(emulatorKey),
        SPELLRUN_PLAYGROUND_IN_PAGE_EMULATOR: JSON.stringify(inPageEmulator),
      }),
      // The emulator's few Node imports, for its routes running in the page.
      ...Object.entries(NODE_SHIMS).map(
        ([name, file]) =>
          new NormalModuleReplacementPlugin(
            new RegExp(`^${name}$`),
            path.join(root, "playground", "emulator", "nodeShims", file)
          )
      ),
      new HtmlWebpackPlugin({
        filename: "playground.html",
        template: "./playground/playground.html",
        inject: false,
      }),
    ],
    performance: { hints: false },
  };
}

const NODE_SHIMS = {
  "node:timers/promises": "timersPromises.ts",
  "node:crypto": "crypto.ts",
  "node:http": "http.ts",
};

/** Where `npm run build:playground` writes the static playground. */
const STATIC_PLAYGROUND_FOLDER = path.join("dist", "playground-static");

/**
 * The static playground (`npm run build:playground`, also what `npm run playground` serves): the
 * add-in's development build (plain file names: functions.js, functions.json, taskpane.js) and
 * the playground page with the emulator running in it, minified into one folder that any static
 * host serves (index.html is the page). The add-in calls the service "through the add-in's host"
 * (`/spell-api`, `/spell-poll` of the page's origin), which the page's emulator answers.
 *
 * @param {string} root The repository's root.
 * @param {import("webpack").Configuration} addin The add-in's development configuration.
 * @param {Record<string, string>} addinDefines The add-in's service defaults (through its host).
 */
function staticPlaygroundConfigs(root, addin, addinDefines) {
  const folder = path.join(root, STATIC_PLAYGROUND_FOLDER);
  const page = playgroundConfig(root, {
    emulatorKey: "spellrun-dev-key",
    defines: addinDefines,
    inPageEmulator: true,
  });
  page.plugins.push(
    new HtmlWebpackPlugin({
      filename: "index.html",
      template: "./playground/playground.html",
      inject: false,
    })
  );
  return [addin, page].map((config) => ({
    ...config,
    // `--mode development` keeps the add-in's development defines (plain names, the emulator's
    // http:// accepted); the bundles are optimised as a production build's.
    devtool: false,
    optimization: {
      minimize: true,
      nodeEnv: "production",
      usedExports: true,
      sideEffects: true,
      concatenateModules: true,
      moduleIds: "deterministic",
    },
    output: { ...config.output, path: folder, clean: false },
    devServer: undefined,
    performance: { hints: false },
  }));
}

module.exports = { playgroundConfig, staticPlaygroundConfigs, STATIC_PLAYGROUND_FOLDER };
