import { createServer, type Server } from "node:http";
import { once } from "node:events";
import { registry } from "./registry";

/**
 * The metrics on their own port (METRICS_PORT), bound to loopback unless
 * METRICS_HOST says otherwise: `GET /metrics` in Prometheus' text format,
 * anything else 404. Never on the public port.
 */
export async function startMetricsServer(port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  server.listen(port, host);
  await once(server, "listening");
  return server;
}
