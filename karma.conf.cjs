/**
 * Karma: the browser specs (`test/** /*.browser.spec.ts`) in Debian's headless Chromium.
 *
 * Run through `npm run test:browser` (scripts/karmaWithEmulator.ts), which starts a Spell service
 * emulator first and hands its addresses to the page as `__karma__.config.spellEmulator`.
 * `KARMA_SPECS` narrows the spec files (a glob), e.g. `KARMA_SPECS='test/core/**\/*.browser.spec.ts'`.
 * Nothing here downloads a browser: Chromium is `CHROME_BIN` or /usr/bin/chromium.
 */
const { chromiumFlags, specWebpackConfig } = require("./scripts/browserBuild.cjs");

process.env.CHROME_BIN = process.env.CHROME_BIN || "/usr/bin/chromium";

const specs = process.env.KARMA_SPECS || "test/**/*.browser.spec.ts";

module.exports = function (config) {
  config.set({
    basePath: __dirname,
    frameworks: ["jasmine", "webpack"],
    plugins: ["karma-webpack", "karma-jasmine", "karma-chrome-launcher", "karma-spec-reporter"],
    files: [{ pattern: specs, watched: false }],
    preprocessors: { [specs]: ["webpack"] },
    webpack: {
      mode: "development",
      devtool: "inline-source-map",
      ...specWebpackConfig(__dirname),
      performance: { hints: false },
      stats: "errors-only",
    },
    reporters: ["spec"],
    specReporter: { suppressSkipped: false, showSpecTiming: true },
    browsers: ["ChromiumHeadlessCI"],
    customLaunchers: {
      ChromiumHeadlessCI: {
        base: "ChromeHeadless",
        flags: chromiumFlags,
      },
    },
    client: { jasmine: { random: false, timeoutInterval: 20000 } },
    browserNoActivityTimeout: 120000,
    browserDisconnectTimeout: 30000,
    // The whole-sheet specs (a million-row plan) keep the page busy for tens of seconds at a
    // time on a loaded machine: the socket's ping must wait for them.
    pingTimeout: 120000,
    captureTimeout: 120000,
    singleRun: true,
    concurrency: 1,
    logLevel: config.LOG_WARN,
  });
};
