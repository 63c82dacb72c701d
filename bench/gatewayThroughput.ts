/**
 * `npm run bench -- gatewayThroughput`: requests per second of `start` through the add-in server,
 * pass-through against organisation mode (token check, budget charge in SQL before forwarding,
 * the answer recorded on the ledger) with the embedded PGlite ledger (a folder) and with a
 * PostgreSQL server (a throw-away one, when initdb is found), in the same run, in front of the
 * same instant upstream. Prints each figure and its ratio to pass-through.
 *
 * Options: `--requests <n>` (default 2000 per mode), `--concurrency <n>` (default 16).
 */
import http from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { FastifyInstance } from "fastify";
import { createAddinServer } from "../addin-server/src/createAddinServer";
import { createLocalIssuer } from "../addin-server/src/localIssuer/createLocalIssuer";
import type { OrganisationOptions } from "../addin-server/src/organisation/OrganisationOptions";
import {
  postgresBinaries,
  startThrowawayPostgres,
} from "../test/addin-server/support/throwawayPostgres";

const { values } = parseArgs({
  options: { requests: { type: "string" }, concurrency: { type: "string" } },
  strict: false,
});
const REQUESTS = Number(values.requests ?? 2000);
const CONCURRENCY = Number(values.concurrency ?? 16);
const KEY = "sk-bench-organisation-key";

async function main(): Promise<void> {
  const upstream = http.createServer((request, response) => {
    request.resume();
    request.on("end", () =>
      response.writeHead(200, { "content-type": "application/json" }).end('{"runId":"r-1"}')
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const issuer = await createLocalIssuer({ tenantId: "bench", audience: "bench-addin" });
  // Many users, so the counters' row locks are not all on one row.
  const tokens = await Promise.all(
    Array.from({ length: 20 }, (_, index) => issuer.sign({ user: `user${index}@example.test` }))
  );
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-bench-gateway-"));
  writeFileSync(path.join(folder, "taskpane.html"), "<!doctype html>");
  writeFileSync(path.join(folder, "key"), KEY);
  writeFileSync(
    path.join(folder, "budgets.json"),
    JSON.stringify({ global: { perDay: 1e9 }, users: { default: { perDay: 1e9, perMonth: 1e9 } } })
  );
  const organisation = (database: string): OrganisationOptions => ({
    signIn: {
      tenantId: issuer.tenantId,
      issuer: issuer.issuer,
      jwksUrl: issuer.jwksUrl,
      audience: issuer.audience,
    },
    clientId: issuer.audience,
    spellKey: { file: path.join(folder, "key") },
    adminGroup: "admins",
    database,
    budgetsFile: path.join(folder, "budgets.json"),
  });
  const serve = async (extra: { organisation?: OrganisationOptions }) => {
    const app: FastifyInstance = await createAddinServer({
      addinDir: folder,
      serviceBaseUrl: upstreamUrl,
      servicePollBaseUrl: upstreamUrl,
      logger: false,
      ...extra,
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  };

  const modes: { name: string; start: () => Promise<{ app: FastifyInstance; url: string }> }[] = [
    { name: "pass-through", start: () => serve({}) },
    {
      name: "organisation, PGlite ledger",
      start: () => serve({ organisation: organisation(path.join(folder, "ledger")) }),
    },
  ];
  const binaries = postgresBinaries();
  const postgres = binaries ? await startThrowawayPostgres(binaries) : undefined;
  if (postgres) {
    modes.push({
      name: "organisation, PostgreSQL ledger",
      start: () => serve({ organisation: organisation(postgres.url) }),
    });
  }

  console.log(
    `${REQUESTS} starts per mode, ${CONCURRENCY} at once, plain HTTP on loopback, instant upstream\n`
  );
  const results: { name: string; perSecond: number }[] = [];
  for (const mode of modes) {
    const { app, url } = await mode.start();
    await drive(url, tokens, 200); // warm-up: JWKS fetched, connections and JIT warm
    const began = performance.now();
    await drive(url, tokens, REQUESTS);
    const seconds = (performance.now() - began) / 1000;
    results.push({ name: mode.name, perSecond: REQUESTS / seconds });
    await app.close();
  }
  const baseline = results[0]!.perSecond;
  console.log("mode                              requests/s   ratio to pass-through");
  for (const { name, perSecond } of results) {
    console.log(
      `${name.padEnd(34)}${perSecond.toFixed(0).padStart(10)}   ${(perSecond / baseline).toFixed(2)}`
    );
  }
  if (!postgres) console.log("\n(PostgreSQL not measured: initdb not found)");
  await postgres?.stop();
  await issuer.close();
  upstream.close();
}

/** Sends `count` starts, `CONCURRENCY` at a time, each user in turn; fails on any non-200. */
async function drive(url: string, tokens: string[], count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const answer = await fetch(`${url}/spell-api/spells/start`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${tokens[index % tokens.length]}`,
        },
        body: '{"spellId":"summarize","wait":false,"inputs":{"text":"hello"}}',
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`start answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
