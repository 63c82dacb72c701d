// Marks dist/lib/esm as ES modules and dist/lib/cjs as CommonJS, so Node loads each build as what it is.
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
