import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CommanderError } from "commander";
import { createProgram } from "../../cli/commands/createProgram.js";
import {
  EMULATOR_NOT_INSTALLED,
  emulatorCommand,
  emulatorIsInstalled,
} from "../../cli/commands/emulatorCommand.js";
import { UsageError } from "../../cli/errors/UsageError.js";
import { EXIT_CODES } from "../../cli/errors/exitCodes.js";
import { startCli, waitFor } from "./support/spawnCli.js";

describe("spellrun emulator", () => {
  it("should start the emulator with its flags, serve a run, and stop on Ctrl-C", async () => {
    const cli = startCli(["emulator", "--port", "0", "--poll-port", "0", "--time-scale", "0.01"], {
      PATH: process.env.PATH,
    });
    await waitFor(() => cli.output().stdout.includes("API key"), 20_000, "the emulator banner");
    const baseUrl = /base URL\s+(\S+)/.exec(cli.output().stdout)?.[1] as string;
    const response = await fetch(`${baseUrl}/spells/start`, {
      method: "POST",
      headers: { authorization: "Bearer spellrun-dev-key", "content-type": "application/json" },
      body: JSON.stringify({ spellId: "echo", wait: true, inputs: { a: 1 } }),
    });
    expect(await response.json()).toEqual({ outputs: { a: 1 } });
    cli.child.kill("SIGINT");
    const result = await cli.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("SIGINT: stopping the emulator");
  }, 30_000);
});

describe("emulatorCommand", () => {
  it("should say how to get the emulator when it is not installed (usage error, exit 2)", async () => {
    const missing = Object.assign(new Error("Cannot find package 'fastify'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await emulatorCommand([], {}, () => Promise.reject(missing)).catch(
      (caught: unknown) => caught
    );
    expect(error).toEqual(jasmine.any(UsageError));
    expect((error as UsageError).exitCode).toBe(EXIT_CODES.usage);
    expect((error as UsageError).message).toBe(EMULATOR_NOT_INSTALLED);
  });

  it("should let any other failure of the emulator through as it is", async () => {
    const broken = new SyntaxError("Unexpected token");
    await expectAsync(emulatorCommand([], {}, () => Promise.reject(broken))).toBeRejectedWith(
      broken
    );
  });
});

describe("spellrun --help and the emulator", () => {
  async function helpOf(emulator: boolean): Promise<string> {
    let text = "";
    const program = createProgram("0.0.0", { emulator }).configureOutput({
      writeOut: (chunk) => (text += chunk),
      writeErr: (chunk) => (text += chunk),
    });
    await program
      .parseAsync(["node", "spellrun", "--help"])
      .catch((error: unknown) => expect(error).toEqual(jasmine.any(CommanderError)));
    return text;
  }

  it("should not offer the emulator where it is not installed", async () => {
    const help = await helpOf(false);
    expect(help).toContain("spellrun status summaries.csv.journal");
    expect(help).not.toContain("emulator");
  });

  it("should list the emulator and its example in a clone", async () => {
    const help = await helpOf(true);
    expect(help).toContain("emulator [flags...]");
    expect(help).toContain("spellrun emulator --time-scale 0.1");
  });

  it("should tell an installed package (no emulator files beside it) from a clone", () => {
    const root = mkdtempSync(path.join(tmpdir(), "spellrun-install-"));
    try {
      mkdirSync(path.join(root, "dist", "cli"), { recursive: true });
      const main = path.join(root, "dist", "cli", "main.js");
      writeFileSync(main, "");
      expect(emulatorIsInstalled(main)).toBeFalse();
      mkdirSync(path.join(root, "dist", "emulator"));
      writeFileSync(path.join(root, "dist", "emulator", "runEmulatorCli.js"), "");
      expect(emulatorIsInstalled(main)).toBeTrue();
      expect(emulatorIsInstalled(path.resolve(__dirname, "../../cli/main.ts"))).toBeTrue();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
