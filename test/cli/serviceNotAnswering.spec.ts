import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { runCli } from "./support/spawnCli.js";

/** An address nothing listens on (a port just freed). */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("spellrun against a service that does not answer", () => {
  it("should say where it tried and how to start the emulator, never the key", async () => {
    const address = await closedAddress();
    const key = "sk-cli-not-answering-secret";
    const result = await runCli(["run", "echo", "--input", '{"n":1}'], {
      PATH: process.env.PATH,
      SPELL_API_KEY: key,
      SPELL_BASE_URL: address,
      SPELL_POLL_BASE_URL: address,
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`nothing answered at ${address}`);
    expect(result.stderr).toContain("npm run emulator");
    expect(result.stderr).toContain("--base-url http://127.0.0.1:3001");
    expect(result.stderr).not.toContain(key);
  }, 60_000);
});
