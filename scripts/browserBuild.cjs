/**
 * What every browser build of our TypeScript shares: Karma's bundles, the screenshot harness and
 * the playground page (playground/webpack.config.cjs).
 * - `chromiumFlags`: Debian's Chromium, headless, as root, on a closed network.
 * - `specWebpackConfig(root)`: TypeScript through ts-loader (types are checked by `tsc`, not here),
 *   `.js` specifiers resolved to `.ts`, `spellrun` to the core's sources, CSS as text, and office-addin-mock's one Node-only import
 *   (office-addin-manifest, used for an enum) replaced by a browser shim.
 */
const path = require("path");

const chromiumFlags = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

function specWebpackConfig(root) {
  return {
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: "ts-loader",
            options: { transpileOnly: true, configFile: path.join(root, "tsconfig.json") },
          },
        },
        { test: /\.css$/, type: "asset/source" },
      ],
    },
    resolve: {
      extensions: [".ts", ".js"],
      extensionAlias: { ".js": [".ts", ".js"] },
      alias: {
        // The core by its package name, from its sources (the front ends import "spellrun").
        spellrun$: path.join(root, "src/index.ts"),
        "office-addin-manifest": path.join(root, "playground/excel/officeAppShim.ts"),
      },
    },
  };
}

module.exports = { chromiumFlags, specWebpackConfig };
