import type { AddressInfo } from "node:net";
import { createAddinServer } from "../addin-server/src/createAddinServer.js";
import { testCertificate } from "../test/addin-server/support/testCertificate.js";

/** A file the benchmark adds to the add-in's origin: its content type and body. */
export interface BenchFile {
  /** The `content-type` it is served with, e.g. `text/javascript; charset=utf-8`. */
  type: string;
  /** The file's text. */
  body: string;
}

/** The add-in server a benchmark started: the page origin to open, and how to stop it. */
export interface AddinHostForBench {
  /** `https://127.0.0.1:<port>`: the built add-in, `/bench/*`, and the forwarding paths. */
  origin: string;
  /** Stops taking requests and closes the listener. */
  close(): Promise<void>;
}

/**
 * Serves a built add-in the way users get it: the production add-in server (`addin-server/`,
 * with its security headers and Content-Security-Policy) over HTTPS on 127.0.0.1 (a random
 * port, a throw-away certificate made on the spot, trusted by nobody: the browser skips
 * verification), forwarding the add-in's `/spell-api` and `/spell-poll` calls to the given Spell
 * hosts. The add-in's page then calls its own origin ("through the add-in's host", the default of
 * a build that names no service), so a production bundle, which takes only https:// service
 * addresses, runs against the emulator's http:// loopback addresses without any rule of the
 * build or the server loosened.
 *
 * `benchFiles` are added under `/bench/` of the same origin (the page that stands in for Excel
 * and what it loads): same-origin scripts, as the server's `script-src 'self'` requires.
 *
 * ## Example
 * ```ts
 * const host = await serveAddinForBench({ addinDir, serviceBaseUrl: emulator.baseUrl,
 *   servicePollBaseUrl: emulator.pollBaseUrl, benchFiles: { "index.html": page } });
 * await tab.goto(`${host.origin}/bench/index.html`);
 * await host.close();
 * ```
 *
 * @param options The built add-in's folder, the two Spell hosts, the benchmark's own files.
 * @return The origin and `close`.
 */
export async function serveAddinForBench(options: {
  addinDir: string;
  serviceBaseUrl: string;
  servicePollBaseUrl: string;
  benchFiles: Record<string, BenchFile>;
}): Promise<AddinHostForBench> {
  const app = await createAddinServer({
    addinDir: options.addinDir,
    serviceBaseUrl: options.serviceBaseUrl,
    servicePollBaseUrl: options.servicePollBaseUrl,
    tls: await testCertificate(),
    // One log line per request would weigh on the measured loop and bury the table.
    logger: false,
  });
  app.get<{ Params: { name: string } }>("/bench/:name", async (request, reply) => {
    const file = Object.hasOwn(options.benchFiles, request.params.name)
      ? options.benchFiles[request.params.name]
      : undefined;
    if (!file) return reply.callNotFound();
    return reply.header("cache-control", "no-store").type(file.type).send(file.body);
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    origin: `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
}
