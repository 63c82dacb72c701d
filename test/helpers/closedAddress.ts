import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An address nothing listens on: a loopback port just freed (a refused connection, as a service
 * that is down gives).
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ baseUrl: await closedAddress(), apiKey: "k" });
 * ```
 * @return `http://127.0.0.1:<port>`
 */
export async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
