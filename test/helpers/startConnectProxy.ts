import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

/** A local forward proxy that only tunnels (HTTP CONNECT), as corporate proxies do. */
export interface ConnectProxy {
  url: string;
  /** The `host:port` of every CONNECT it was asked for. */
  tunnels: string[];
  close(): Promise<void>;
}

/**
 * A CONNECT proxy on 127.0.0.1 (node:http): answers `200 Connection Established` and pipes the
 * bytes both ways; with `refuse`, answers 407 (proxy authentication required) to every CONNECT.
 * Used by the command line's and the library's proxy specs.
 *
 * ## Example
 * ```ts
 * const proxy = await startConnectProxy();
 * // ... HTTP_PROXY=proxy.url ...
 * expect(proxy.tunnels).toContain("127.0.0.1:3001");
 * await proxy.close();
 * ```
 */
export async function startConnectProxy(refuse = false): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => {
    // Plain (non-CONNECT) proxy requests are not what this proxy serves.
    response.writeHead(405).end();
  });
  server.on("connect", (request, client: Socket, head: Buffer) => {
    tunnels.push(request.url ?? "");
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (refuse) {
      client.end("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const [host, port] = (request.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
