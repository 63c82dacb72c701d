// The package.json a tarball carries: the repository's, without what only serves development.
// `npm pack` and `npm publish` put the package.json on disk into the tarball, so the package's
// `prepack` script runs `strip` (after its build) and `postpack` runs `restore`:
//
//   node ../scripts/publishManifest.cjs strip     # in the package's folder (npm runs it there)
//   node ../scripts/publishManifest.cjs restore
//
// strip keeps the original beside it (package.json.unpacked, never packed: not in `files`),
// removes the scripts (npm 11 warns at install about a package with `prepare`; a user's install
// must run none of ours), the development-only fields, and turns a workspace dependency
// (`file:..`) into a range of the version it links to, so the command's package depends on the
// library as released.
const fs = require("fs");
const path = require("path");

/** Fields that only mean something in this repository. */
const DEVELOPMENT_FIELDS = [
  "scripts",
  "devDependencies",
  "workspaces",
  "overrides",
  "allowScripts",
];

const folder = process.cwd();
const manifestFile = path.join(folder, "package.json");
const original = path.join(folder, "package.json.unpacked");

function strip() {
  if (fs.existsSync(original)) {
    throw new Error(
      `${original} exists: an earlier pack did not finish. Check it is the full package.json, ` +
        `then run: node ${path.relative(folder, __filename)} restore`
    );
  }
  const text = fs.readFileSync(manifestFile, "utf8");
  const manifest = JSON.parse(text);
  for (const field of DEVELOPMENT_FIELDS) delete manifest[field];
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    if (!spec.startsWith("file:")) continue;
    const linked = JSON.parse(
      fs.readFileSync(path.join(folder, spec.slice("file:".length), "package.json"), "utf8")
    );
    if (linked.name !== name) throw new Error(`${name}: ${spec} holds ${linked.name}`);
    manifest.dependencies[name] = `^${linked.version}`;
  }
  fs.writeFileSync(original, text);
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
}

function restore() {
  if (fs.existsSync(original)) fs.renameSync(original, manifestFile);
}

const command = process.argv[2];
if (command === "strip") strip();
else if (command === "restore") restore();
else throw new Error(`usage: node publishManifest.cjs strip|restore (not ${command})`);
