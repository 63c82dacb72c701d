/**
 * Runs the Karma browser specs against a Spell service emulator started for them.
 *
 * The emulator runs in this Node process; the page reaches it over real sockets (CORS), and finds
 * its addresses and key in `__karma__.config.spellEmulator`. The playground specs also get the
 * custom functions' metadata as the build generates it (functions.json and the id → export pairs
 * the metadata plugin associates) in `__karma__.config.customFunctions`. Exits with Karma's exit code.
 */
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { startEmulator } from "../emulator/startEmulator.js";

// karma ships no types of its own that match v6's runtime API; this is the part used here.
interface KarmaModule {
  config: {
    parseConfig(
      file: string,
      overrides: Record<string, unknown>,
      options: { promiseConfig: true; throwErrors: true }
    ): Promise<unknown>;
  };
  Server: new (config: unknown, done: (exitCode: number) => void) => { start(): Promise<void> };
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ timeScale: 0.05 });
  const generated = await generateCustomFunctionsMetadata(
    path.resolve(__dirname, "..", "functions", "functions.ts")
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const karma = require("karma") as KarmaModule;
  const configFile = path.resolve(__dirname, "..", "karma.conf.cjs");
  const config = await karma.config.parseConfig(
    configFile,
    {
      client: {
        jasmine: { random: false, timeoutInterval: 20000 },
        spellEmulator: {
          baseUrl: emulator.baseUrl,
          pollBaseUrl: emulator.pollBaseUrl,
          apiKey: emulator.apiKey,
        },
        customFunctions: {
          functions: (JSON.parse(generated.metadataJson) as { functions: unknown[] }).functions,
          associate: generated.associate,
        },
      },
    },
    { promiseConfig: true, throwErrors: true }
  );
  const exitCode = await new Promise<number>((resolve) => {
    const server = new karma.Server(config, resolve);
    void server.start();
  });
  await emulator.close();
  process.exit(exitCode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
