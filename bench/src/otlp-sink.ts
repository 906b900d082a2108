import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in OpenTelemetry collector on 127.0.0.1: takes every OTLP/HTTP
 * export (JSON, the exporter's default), answers 200 and keeps nothing but
 * counts. With it the server pays
 * all of tracing (spans made, batched, serialised and sent) without a real
 * collector on the machine competing for its cores.
 */
export interface OtlpSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporter posts to its /v1/traces). */
  endpoint: string;
  /** Export requests, their bytes and the spans in them so far. */
  received(): { requests: number; bytes: number; spans: number };
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests += 1;
      bytes += body.length;
      // Each span has one "spanId" key (its parent's is "parentSpanId").
      spans += body.split('"spanId":').length - 1;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ requests, bytes, spans }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
