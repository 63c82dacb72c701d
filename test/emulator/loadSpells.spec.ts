import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSpells } from "../../emulator/loadSpells.js";
import { startEmulator } from "../../emulator/startEmulator.js";
import { spellApi } from "./support/emulatorHttp.js";

describe("loadSpells", () => {
  const directory = mkdtempSync(join(tmpdir(), "spells-"));
  const file = (name: string, content: unknown): string => {
    const path = join(directory, name);
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
    return path;
  };

  it("should load the default demo spells with their inputs, outputs and durations", () => {
    const spells = loadSpells();
    expect([...spells.keys()].sort()).toEqual([
      "always-errors",
      "always-fails",
      "checksum",
      "echo",
      "extract-emails",
      "sentiment",
      "sleep",
      "summarize",
      "translate",
    ]);
    expect(spells.get("summarize")).toEqual(
      jasmine.objectContaining({ inputs: ["text"], outputs: ["summary", "words"], durationMs: 400 })
    );
    expect(spells.get("translate")?.inputs).toEqual(["text", "language"]);
  });

  it("should reject a file with an unknown behaviour or no spells list", () => {
    expect(() =>
      loadSpells(file("bad.json", { spells: [{ id: "x", behaviour: "magic" }] }))
    ).toThrowError(/unknown behaviour "magic"/);
    expect(() => loadSpells(file("empty.json", {}))).toThrowError(/expected \{ "spells"/);
    expect(() => loadSpells(file("broken.json", "{"))).toThrow();
  });

  it("should serve the spells of an overriding file", async () => {
    const spellsFile = file("custom.json", {
      spells: [{ id: "shout", behaviour: "echo", inputs: [], outputs: [], durationMs: 10 }],
    });
    const emulator = await startEmulator({ spellsFile });
    try {
      const spell = spellApi(emulator);
      expect((await spell.start("shout", { a: 1 }, true)).body).toEqual({ outputs: { a: 1 } });
      expect((await spell.start("echo", { a: 1 }, true)).status).toBe(404);
    } finally {
      await emulator.close();
    }
  });
});
