import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { lastValueFrom } from "rxjs";
import { SpellClient, SpellResponseTooLargeError } from "../../src/index.js";

describe("SpellClient answer size cap (hostile service)", () => {
  let server: Server;
  let url: string;
  let bytesSent = 0;
  let declareLength = false;

  beforeEach(async () => {
    bytesSent = 0;
    server = createServer((_request, response) => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      response.writeHead(200, {
        "content-type": "application/json",
        ...(declareLength ? { "content-length": String(600 * 1024 * 1024) } : {}),
      });
      response.write("{");
      // An endless body: only the client's cap can end it.
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) bytesSent += chunk.length;
        if (!response.destroyed) response.once("drain", pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  for (const declared of [false, true]) {
    it(`should stop reading past maxResponseBytes and fail with SpellResponseTooLargeError (content-length ${declared ? "declared" : "absent"})`, async () => {
      declareLength = declared;
      const client = new SpellClient({
        apiKey: "k",
        baseUrl: url,
        pollBaseUrl: url,
        maxResponseBytes: 1024 * 1024,
        retry: { limit: 0 },
      });
      const error = await lastValueFrom(client.resumeRun("run-1")).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpellResponseTooLargeError);
      expect((error as SpellResponseTooLargeError).limitBytes).toBe(1024 * 1024);
      // Reading stopped near the cap, not at the end of an endless body.
      expect(bytesSent).toBeLessThan(64 * 1024 * 1024);
    });
  }
});
