// Completes dist/cli after tsc -p tsconfig.cli.json, so that `spellrun` runs with plain node:
// - marks dist/cli as ES modules (the package itself is CommonJS);
// - points the CLI's `import … from "spellrun"` (and "spellrun/node") at the library build
//   (dist/lib/esm), so the command line runs on the one compiled core; a package scope without
//   a name cannot self-reference, hence the rewrite;
// - copies the emulator's spells file next to its compiled loader (`spellrun emulator`).
const fs = require("fs");
const path = require("path");
const root = path.join(__dirname, "..");
const cli = path.join(root, "dist", "cli");
fs.writeFileSync(path.join(cli, "package.json"), JSON.stringify({ type: "module" }) + "\n");
const cliDir = path.join(cli, "cli");
// The command line is grouped in folders (commands/, job/, table/, errors/): every file, at any
// depth, gets the path to the library build relative to where it sits.
const libraryEntries = {
  spellrun: path.join(cli, "..", "lib", "esm", "index.js"),
  "spellrun/node": path.join(cli, "..", "lib", "esm", "node", "index.js"),
};
for (const name of fs
  .readdirSync(cliDir, { recursive: true })
  .filter((file) => file.endsWith(".js"))) {
  const file = path.join(cliDir, name);
  const text = fs.readFileSync(file, "utf8");
  const relative = (entry) => path.relative(path.dirname(file), entry).split(path.sep).join("/");
  const rewritten = text.replace(
    /from "(spellrun(?:\/node)?)";/g,
    (_, name) => `from "${relative(libraryEntries[name])}";`
  );
  if (/(from\s*|import\s*\(\s*)["']spellrun(\/[^"']*)?["']/.test(rewritten)) {
    throw new Error(`${file}: an import of "spellrun" in a form this script does not rewrite`);
  }
  if (rewritten !== text) fs.writeFileSync(file, rewritten);
}
fs.copyFileSync(
  path.join(root, "emulator", "spells.json"),
  path.join(cli, "emulator", "spells.json")
);
fs.chmodSync(path.join(cliDir, "main.js"), 0o755);
