#!/usr/bin/env node
/**
 * `spellrun-addin-server` (the package's bin; `npm run serve-addin` from a clone): reads the
 * options, listens, and on SIGTERM / SIGINT stops taking requests, lets those in flight finish and
 * exits, as a container orchestrator or a load balancer's draining expects; SIGHUP re-reads the
 * organisation mode's files. `spellrun-addin-server usage` prints the organisation's usage.
 */
import { createAddinServer } from "./createAddinServer";
import { usageCommand } from "./organisation/usageCommand";
import { SERVER_USAGE, parseServerArguments } from "./parseServerArguments";

async function main(): Promise<void> {
  if (process.argv[2] === "usage") {
    await usageCommand(process.argv.slice(3), process.env, (line) => console.log(line));
    return;
  }
  const command = parseServerArguments(process.argv.slice(2), process.env);
  if (command.help) {
    console.log(SERVER_USAGE);
    return;
  }
  const app = await createAddinServer(command.options);
  await app.listen({ host: command.host, port: command.port });
  // Organisation mode: SIGHUP reads the key, budgets and groups files again (they are also
  // watched); no restart for a key rotation.
  process.on("SIGHUP", () => {
    app.log.info("SIGHUP: reading the organisation's files again");
    app.organisation?.reload();
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, "closing: finishing the requests in flight");
      app.close().then(
        () => process.exit(0),
        () => process.exit(1)
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error(`spellrun-addin-server: ${error instanceof Error ? error.message : String(error)}`);
  console.error("spellrun-addin-server --help lists the options.");
  process.exit(2);
});
