// The Office add-in ecosystem's own lint rules (office-addin-lint's recommended set: load/sync
// discipline for Office.js, prettier as a rule), plus typescript-eslint's recommended rules.
import officeAddins from "eslint-plugin-office-addins";
import tseslint from "typescript-eslint";

// The Office set registers the @typescript-eslint plugin itself; typescript-eslint's own configs
// register it again, which flat config refuses. Keep the Office rules, drop their plugin copy.
const officeRecommended = officeAddins.configs.recommended.map((config) => {
  if (!config.plugins?.["@typescript-eslint"]) return config;
  const { "@typescript-eslint": _typescriptPlugin, ...plugins } = config.plugins;
  return { ...config, plugins };
});

export default [
  {
    ignores: [
      "dist/**",
      "addin-server/dist/**",
      "cli/dist/**",
      "node_modules/**",
      "docs/**",
      "coverage/**",
      ".spellrun/**",
    ],
  },
  ...tseslint.configs.recommended,
  ...officeRecommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // TypeScript itself reports undefined names, with the right globals per file (DOM, Node, Office).
    files: ["**/*.ts"],
    rules: { "no-undef": "off" },
  },
  {
    // Specs share one Node process with live sockets: a mock clock replaces the global timers
    // for all of them, so a network client's clearTimeout cancels nothing and its timer fires
    // later on freed state (an uncaught TypeError in whichever spec runs then). Inject a clock.
    files: ["test/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name='jasmine'][callee.property.name='clock']",
          message:
            "jasmine.clock() replaces the process's timers under other specs' sockets: inject a clock or schedule option instead.",
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        __dirname: "readonly",
        __filename: "readonly",
        console: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];
