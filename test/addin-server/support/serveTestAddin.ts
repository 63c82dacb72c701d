import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { createAddinServer } from "../../../addin-server/src/createAddinServer.js";
import type { AddinServerOptions } from "../../../addin-server/src/AddinServerOptions.js";
import { testCertificate } from "./testCertificate.js";

/**
 * A folder shaped like dist/addin: the page, functions.json, a hidden file that must never be
 * served, and `extraFiles` (name → content).
 *
 * ## Example
 * ```ts
 * const folder = testAddinFolder({ "functions.0123456789abcdef0123.js": "1" });
 * ```
 */
export function testAddinFolder(extraFiles: Record<string, string | Buffer> = {}): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-addin-"));
  writeFileSync(path.join(folder, "taskpane.html"), "<!doctype html><title>Spell Run</title>");
  writeFileSync(path.join(folder, "functions.json"), '{"functions":[]}');
  writeFileSync(path.join(folder, ".env"), "SECRET=1");
  for (const [name, content] of Object.entries(extraFiles)) {
    writeFileSync(path.join(folder, name), content);
  }
  return folder;
}

/** A listening add-in server of a spec and its address. */
export interface TestAddinServer {
  app: FastifyInstance;
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
}

/**
 * Starts the add-in server over HTTPS (throw-away certificate) on 127.0.0.1, port 0, quiet, with
 * a test add-in folder; `overrides` win.
 *
 * ## Example
 * ```ts
 * const server = await serveTestAddin({ serviceBaseUrl: base.url, servicePollBaseUrl: poll.url });
 * ```
 */
export async function serveTestAddin(
  options: Omit<AddinServerOptions, "addinDir"> & { addinDir?: string }
): Promise<TestAddinServer> {
  const app = await createAddinServer({
    addinDir: testAddinFolder(),
    tls: await testCertificate(),
    logger: false,
    ...options,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `https://127.0.0.1:${port}`, port };
}
