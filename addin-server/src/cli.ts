#!/usr/bin/env node
/**
 * `spellrun-addin-server` (the package's bin; `npm run serve-addin` from a clone): reads the
 * options, listens, and on SIGTERM / SIGINT stops taking requests, lets those in flight finish and
 * exits, as a container orchestrator or a load balancer's draining expects.
 */
import { createAddinServer } from "./createAddinServer";
import { SERVER_USAGE, parseServerArguments } from "./parseServerArguments";

async function main(): Promise<void> {
  const command = parseServerArguments(process.argv.slice(2), process.env);
  if (command.help) {
    console.log(SERVER_USAGE);
    return;
  }
  const app = await createAddinServer(command.options);
  await app.listen({ host: command.host, port: command.port });
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
