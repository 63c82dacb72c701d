import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateCertificates } from "office-addin-dev-certs/lib/generate";

let made: Promise<{ key: Buffer; cert: Buffer }> | undefined;

/**
 * A throw-away TLS key and certificate for 127.0.0.1 (made once per process with the Office
 * dev-certificate tool, in a temporary folder; nothing is installed or trusted). Clients in the
 * specs skip verification.
 *
 * ## Example
 * ```ts
 * const tls = await testCertificate();
 * ```
 */
export function testCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  made ??= (async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "spellrun-cert-"));
    const files = ["ca.crt", "localhost.crt", "localhost.key"].map((name) =>
      path.join(folder, name)
    );
    await generateCertificates(files[0], files[1], files[2], 1, ["127.0.0.1", "localhost"]);
    return { cert: readFileSync(files[1]), key: readFileSync(files[2]) };
  })();
  return made;
}
