#!/usr/bin/env node
/**
 * The local issuer as a command (development): `tsx addin-server/src/localIssuer/cli.ts --port 3003`.
 * Stands in for Entra ID on loopback; prints its issuer, keys and token addresses. Its test users:
 * `admin@example.test` (group spellrun-admins), `alice@example.test` and `bob@example.test`
 * (group finance); any other name signs in with no group.
 */
import { parseArgs } from "node:util";
import { createLocalIssuer } from "./createLocalIssuer";

/** The development tenant and audience, as `npm start`'s organisation configuration names them. */
export const DEV_TENANT_ID = "spellrun-dev-tenant";
export const DEV_AUDIENCE = "spellrun-dev-addin";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: "string" } }, strict: true });
  const issuer = await createLocalIssuer({
    tenantId: DEV_TENANT_ID,
    audience: DEV_AUDIENCE,
    port: Number(values.port ?? 3003),
    users: {
      "admin@example.test": ["spellrun-admins"],
      "alice@example.test": ["finance"],
      "bob@example.test": ["finance"],
    },
  });
  console.log(
    JSON.stringify({ issuer: issuer.issuer, jwksUrl: issuer.jwksUrl, tokenUrl: issuer.tokenUrl })
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void issuer.close().then(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  console.error(`local issuer: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
