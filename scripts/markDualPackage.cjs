// Marks dist/lib/esm as ES modules and dist/lib/cjs as CommonJS, so Node loads each build as what it is.
//
// The CommonJS entry points' types also declare `__esModule`, which their code sets (tsc's
// CommonJS output does): without it TypeScript assumes a declaration file may be a plain
// `module.exports` object and lets a CommonJS project (esModuleInterop, as under nodenext)
// compile `import spellrun from "spellrun"`, which is undefined at run time. With it the default
// import fails to compile ("has no default export"), as it already does from an ES module.
const fs = require("fs");
const path = require("path");
const lib = path.join(__dirname, "..", "dist", "lib");
fs.writeFileSync(
  path.join(lib, "esm", "package.json"),
  JSON.stringify({ type: "module", sideEffects: false }) + "\n"
);
fs.writeFileSync(
  path.join(lib, "cjs", "package.json"),
  JSON.stringify({ type: "commonjs", sideEffects: false }) + "\n"
);
const marker = "export declare const __esModule: true;\n";
for (const entry of [
  "index.d.ts",
  path.join("client", "index.d.ts"),
  path.join("node", "index.d.ts"),
]) {
  const file = path.join(lib, "cjs", entry);
  const text = fs.readFileSync(file, "utf8");
  if (text.includes(marker)) continue;
  // Below every declaration (the declaration map's lines stay true), above the source map
  // comment, which TypeScript looks for only at the end of the file.
  const mapComment = text.lastIndexOf("//# sourceMappingURL=");
  const at = mapComment < 0 ? text.length : mapComment;
  fs.writeFileSync(file, text.slice(0, at) + marker + text.slice(at));
}
