// Completes cli/dist after `tsc -p tsconfig.build.json` in cli/ (npm run build -w cli), so that
// `spellrun` runs with plain node:
// - marks cli/dist as ES modules (the package's sources are compiled as CommonJS by tsx);
// - copies the emulator's spells file next to its compiled loader (`spellrun emulator` in a clone).
// The command imports the library by its name, `spellrun`: the installed package, which in the
// repository is the workspace link node_modules/spellrun.
const fs = require("fs");
const path = require("path");
const root = path.join(__dirname, "..");
const dist = path.join(root, "cli", "dist");
fs.writeFileSync(path.join(dist, "package.json"), JSON.stringify({ type: "module" }) + "\n");
fs.copyFileSync(
  path.join(root, "emulator", "spells.json"),
  path.join(dist, "emulator", "spells.json")
);
fs.chmodSync(path.join(dist, "cli", "main.js"), 0o755);
