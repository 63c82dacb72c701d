/**
 * A plain static file server (node:http, no framework): what a newcomer's static host does. It
 * serves the static playground for `npm run playground` and for its Chromium spec.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".xml": "application/xml",
  ".css": "text/css",
};

/** A started static server. */
export interface ServedFolder {
  /** e.g. "http://127.0.0.1:3100" */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the files of `folder` (GET only; "/" is index.html; nothing outside the folder).
 *
 * ## Example
 * ```ts
 * const served = await serveFolder("dist/playground-static", 0);
 * console.log(`${served.origin}/`);
 * await served.close();
 * ```
 */
export async function serveFolder(
  folder: string,
  port: number,
  host = "127.0.0.1"
): Promise<ServedFolder> {
  const base = path.resolve(folder);
  const server = http.createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
    const file = path.join(base, pathname.endsWith("/") ? `${pathname}index.html` : pathname);
    if (request.method !== "GET" || !file.startsWith(base + path.sep)) {
      response.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-cache",
      });
      response.end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
