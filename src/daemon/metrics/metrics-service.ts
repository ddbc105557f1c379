import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { quickListen } from '../../rpc/server/quick-listen.js';
import type { Service } from '../lifecycle/service.js';
import type { Logger } from '../logging/logger.js';
import type { NodeMetrics, NodeMetricsSources, RpcCallObservation } from './node-metrics.js';

// node:http through process.getBuiltinModule, not an `import`: an ESM import of node:http reads every export of
// the module, and its lazy `WebSocket` getter loads undici (Node's fetch); every start loads this file.
const { createServer } = process.getBuiltinModule('node:http');

export interface MetricsServiceOptions {
  /** Unset: no listener (and nothing is counted). */
  readonly port: number | undefined;
  readonly host: string;
  /** What the metrics read and observe. */
  readonly sources: NodeMetricsSources;
  readonly log: Logger;
}

/**
 * GET /metrics in the Prometheus text format on a listener of its own (--metrics-port, loopback by default):
 * scrapers never share a port with the admin API, and the public port exposes nothing new.
 */
export class MetricsService implements Service {
  readonly name = 'metrics';
  private server: Server | undefined;
  private boundUrl: string | undefined;
  /**
   * The series, made at start when a port is set: prom-client (and what it loads) is loaded only by a node that
   * serves metrics.
   */
  private metrics: NodeMetrics | undefined;

  constructor(private readonly o: MetricsServiceOptions) {}

  get enabled(): boolean {
    return this.o.port !== undefined;
  }

  /** http://host:port of the listener once it listens. */
  get url(): string | undefined {
    return this.boundUrl;
  }

  /** Counts one answered JSON-RPC call (nothing while no metrics are served). */
  observeRpc(call: RpcCallObservation): void {
    this.metrics?.observeRpc(call);
  }

  async start(): Promise<void> {
    if (this.o.port === undefined) return;
    const { NodeMetrics } = await import('./node-metrics.js');
    const metrics = new NodeMetrics(this.o.sources);
    this.metrics = metrics;
    metrics.attach();
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Not Found: metrics are served at GET /metrics\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        res.end('Method Not Allowed: GET /metrics\n');
        return;
      }
      metrics.render().then(
        (text) => {
          res.writeHead(200, {
            'content-type': metrics.contentType,
            'content-length': Buffer.byteLength(text),
            'cache-control': 'no-store',
          });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: unknown) => {
          // The scraper sees a failed scrape (its `up` series); the reason goes to the log, not to the wire.
          this.o.log.warn({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Internal Server Error: the node log has the details\n');
        },
      );
    });
    await quickListen(
      () =>
        new Promise<void>((resolve, reject) => {
          const onError = (err: NodeJS.ErrnoException) => {
            const why = err.code === 'EADDRINUSE' ? 'address already in use' : err.message;
            reject(
              new Error(`the metrics listener cannot listen on ${this.o.host}:${this.o.port} (--metrics-port): ${why}`),
            );
          };
          server.once('error', onError);
          server.listen(this.o.port, this.o.host, () => {
            server.off('error', onError);
            resolve();
          });
        }),
    );
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.boundUrl = `http://${host}:${address.port}`;
    this.server = server;
    this.o.log.info({ metricsUrl: `${this.boundUrl}/metrics` }, 'metrics listening');
  }

  async stop(): Promise<void> {
    this.metrics?.detachAll();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
