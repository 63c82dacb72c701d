import { SpellClient } from "../../src/index.js";
import { keyRedactor } from "../../src/http/keyRedactor.js";
import { parseTable } from "../../functions/parseTable.js";
import { parseInputs } from "../../functions/parseInputs.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { toSpellInputs } from "../../cli/table/InputMapping.js";
import { readInputRows } from "../../cli/table/readInputRows.js";
import { startScriptedService, type ScriptedService } from "./support/scriptedService.js";

const KEY = "sk-live-proto-4c1e9b";

/** An answer whose first output is named "__proto__"; the backslash makes the key scrubber read it. */
const HOSTILE_OUTPUTS = '{"__proto__":{"polluted":"yes"},"note":"caf\\u00e9"}';

describe("an output or input named __proto__ (hostile data)", () => {
  let service: ScriptedService;
  afterEach(() => service?.close());

  const expectData = (outputs: Record<string, unknown>) => {
    expect(Object.getPrototypeOf(outputs)).toBe(Object.prototype);
    expect(Object.keys(outputs)).toEqual(["__proto__", "note"]);
    expect(Object.getOwnPropertyDescriptor(outputs, "__proto__")?.value).toEqual({
      polluted: "yes",
    });
    expect((outputs as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  };

  it("should arrive as data through the client (wait mode, with the key scrubbed)", async () => {
    service = await startScriptedService(() => ({ body: `{"outputs":${HOSTILE_OUTPUTS}}` }));
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
    expectData(await client.runOutputs("echo", {}));
  });

  it("should arrive as data through polling mode", async () => {
    service = await startScriptedService((request) =>
      request.endpoint === "start"
        ? { body: { runId: "r1" } }
        : { body: `{"state":"success","outputs":${HOSTILE_OUTPUTS}}` }
    );
    const client = new SpellClient({
      apiKey: KEY,
      baseUrl: service.baseUrl,
      pollBaseUrl: service.pollBaseUrl,
    });
    expectData(await client.runOutputs("echo", {}, { wait: false }));
  });

  it("should be kept as data by the key scrubber", () => {
    const scrubbed = keyRedactor(KEY).json(JSON.parse(HOSTILE_OUTPUTS)) as Record<string, unknown>;
    expectData(scrubbed);
  });

  it("should be kept as an input name by SPELL.RUN's parsers and the CLI's mapping", () => {
    const fromRange = parseInputs([
      ["__proto__", "text", "lang"],
      ["x", "y", "fr"],
    ]);
    const fromTable = parseTable([
      ["__proto__", "text"],
      ["x", "y"],
    ])[0] as Record<string, unknown>;
    const mapped = toSpellInputs(
      JSON.parse('{"__proto__":"x","constructor":"c","text":"y"}') as Record<string, unknown>,
      { only: ["__proto__", "constructor", "text"], rename: {} }
    );
    for (const inputs of [fromRange, fromTable, mapped]) {
      expect(Object.getPrototypeOf(inputs)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(inputs, "__proto__")?.value).toBe("x");
      expect(JSON.stringify(inputs)).toContain('"__proto__":"x"');
    }
    expect(Object.getOwnPropertyDescriptor(mapped, "constructor")?.value).toBe("c");
  });

  it("should be kept as a column of a CSV input file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "spellrun-proto-"));
    try {
      const file = path.join(dir, "in.csv");
      writeFileSync(file, "__proto__,text\nx,y\n");
      const rows = [];
      for await (const row of readInputRows(file, "csv").rows) rows.push(row);
      expect(rows.length).toBe(1);
      expect(rows[0].line).toBe(2);
      expect(Object.getPrototypeOf(rows[0].values)).toBe(Object.prototype);
      expect(JSON.stringify(rows[0].values)).toBe('{"__proto__":"x","text":"y"}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
