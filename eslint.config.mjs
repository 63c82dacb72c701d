// The Office add-in ecosystem's own lint rules (office-addin-lint's recommended set: load/sync
// discipline for Office.js, prettier as a rule), plus typescript-eslint's recommended rules.
import officeAddins from "eslint-plugin-office-addins";
import tsParser from "@typescript-eslint/parser";
import tseslint from "typescript-eslint";

export default [
  { ignores: ["dist/**", "node_modules/**", "docs/**", "coverage/**"] },
  ...officeAddins.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "office-addins": officeAddins },
    languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", process: "readonly", __dirname: "readonly", console: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];
