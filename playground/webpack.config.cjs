/**
 * Builds the playground page (playground.html + playground.js) for the dev server only: the root
 * webpack.config.js adds this compilation in development mode, so `npm start` serves the page next
 * to the add-in (https://localhost:3000/playground.html), and the production add-in build never
 * contains it. The page loads the add-in's own functions.js, functions.json and taskpane.js from
 * the same server.
 */
const path = require("path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const { DefinePlugin } = require("webpack");
const { specWebpackConfig } = require("../scripts/browserBuild.cjs");

/**
 * @param {string} root The repository's root.
 * @param {{ emulatorKey: string, defines: Record<string, string> }} options The emulator's
 *   development key ("" when the dev server points at a real service: the page then starts
 *   without a key), and the add-in build's service addresses (the page saves the first settings).
 */
function playgroundConfig(root, { emulatorKey, defines }) {
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
      }),
      new HtmlWebpackPlugin({
        filename: "playground.html",
        template: "./playground/playground.html",
        inject: false,
      }),
    ],
    performance: { hints: false },
  };
}

module.exports = { playgroundConfig };
