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
