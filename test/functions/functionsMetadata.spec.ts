import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const metadata = createRequire(import.meta.url)(
  "custom-functions-metadata"
) as typeof import("custom-functions-metadata");

interface ParameterMetadata {
  name: string;
  type?: string;
  dimensionality?: string;
  optional?: boolean;
  repeating?: boolean;
}
interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  options?: {
    cancelable?: boolean;
    stream?: boolean;
    volatile?: boolean;
    requiresAddress?: boolean;
    requiresStreamAddress?: boolean;
  };
  parameters: ParameterMetadata[];
  result: { type?: string; dimensionality?: string };
}

const functionsFile = fileURLToPath(new URL("../../functions/functions.ts", import.meta.url));

/**
 * functions.json as the build makes it: CustomFunctionsMetadataPlugin calls this same generator on
 * functions/functions.ts (webpack.config.js), so checking its output checks the shipped file.
 */
describe("functions.json (generated from functions/functions.ts)", () => {
  let functions: FunctionMetadata[];
  let associations: { functionName: string; id: string }[];

  beforeAll(async () => {
    const result = await metadata.generateCustomFunctionsMetadata(functionsFile);
    expect(result.errors).toEqual([]);
    functions = (JSON.parse(result.metadataJson) as { functions: FunctionMetadata[] }).functions;
    associations = result.associate;
  });

  function byId(id: string): FunctionMetadata {
    const found = functions.find((item) => item.id === id);
    if (!found) throw new Error(`no function ${id} in functions.json`);
    return found;
  }

  const shape = (parameter: ParameterMetadata) => ({
    name: parameter.name,
    matrix: parameter.dimensionality === "matrix",
    optional: parameter.optional === true,
    repeating: parameter.repeating === true,
  });

  it("should declare exactly RUN, INPUTS and BULK (SPELL.RUN, SPELL.INPUTS, SPELL.BULK)", () => {
    expect(functions.map((item) => [item.id, item.name])).toEqual([
      ["RUN", "RUN"],
      ["INPUTS", "INPUTS"],
      ["BULK", "BULK"],
    ]);
    for (const item of functions) expect(item.description).toBeTruthy();
  });

  it("should declare RUN(spell_id, inputs, [output]) as cancelable, not streaming, spilling a row", () => {
    const run = byId("RUN");
    expect(run.parameters.map(shape)).toEqual([
      { name: "spell_id", matrix: false, optional: false, repeating: false },
      { name: "inputs", matrix: true, optional: false, repeating: false },
      { name: "output", matrix: true, optional: true, repeating: false },
    ]);
    expect(run.options?.cancelable).toBeTrue();
    expect(run.options?.stream).toBeUndefined();
    expect(run.options?.volatile).toBeUndefined();
    expect(run.result.dimensionality).toBe("matrix");
  });

  it("should declare INPUTS with one repeating argument (name, value, name, value, ...)", () => {
    const inputs = byId("INPUTS");
    expect(inputs.parameters.map(shape)).toEqual([
      { name: "name_value", matrix: true, optional: false, repeating: true },
    ]);
    expect(inputs.options).toBeUndefined();
    expect(inputs.result.type).toBe("string");
  });

  it("should declare BULK(spell_id, table, [outputs]) as streaming (so cancelable through onCanceled) and not @cancelable, spilling a matrix", () => {
    const bulk = byId("BULK");
    expect(bulk.parameters.map(shape)).toEqual([
      { name: "spell_id", matrix: false, optional: false, repeating: false },
      { name: "table", matrix: true, optional: false, repeating: false },
      { name: "outputs", matrix: true, optional: true, repeating: false },
    ]);
    expect(bulk.options?.stream).toBeTrue();
    // "A function can't use both the stream and cancelable properties" (custom-functions-json.md).
    expect(bulk.options?.cancelable).toBeUndefined();
    expect(bulk.result.dimensionality).toBe("matrix");
    // @requiresAddress on a streaming function: the spending guard records a waiting SPELL.BULK
    // by its cell, so the pane can recalculate it.
    expect(bulk.options?.requiresStreamAddress).toBeTrue();
  });

  it("should never count Excel's invocation argument as a parameter", () => {
    for (const item of functions) {
      expect(item.parameters.map((parameter) => parameter.name)).not.toContain("invocation");
    }
  });

  it("should associate each id with the exported function the build registers", async () => {
    const exported = await import("../../functions/functions.js");
    expect(associations.map(({ id, functionName }) => [id, functionName])).toEqual([
      ["RUN", "spellRun"],
      ["INPUTS", "spellInputs"],
      ["BULK", "spellBulk"],
    ]);
    for (const { functionName } of associations) {
      expect(typeof (exported as Record<string, unknown>)[functionName]).toBe("function");
    }
  });
});
