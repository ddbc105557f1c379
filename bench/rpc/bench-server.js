// One benchmark server per process, so the load generator and the server each get their own core.
// Usage: node bench/rpc/bench-server.js <bare|l2node>; prints {"port":N} once listening.
//   bare   - node:http, JSON.parse, dispatch, JSON.stringify (perf-anchors appendix A): the practical limit
//   l2node - the node's own server code from dist/ (method table, jayson, param parsing, result encoding,
//            version and CORS headers), with node_getBlockNumber and node_getBlock bound to fixed values
import http from 'node:http';
import { pino } from 'pino';
import { RpcService } from '../../dist/rpc/server/rpc-service.js';
import { heavyPayload } from './heavy-payload.js';

const kind = process.argv[2];
const heavy = heavyPayload();

if (kind === 'bare') {
  const methods = { node_getBlockNumber: async () => 12345, node_getBlock: async () => heavy };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let out;
      try {
        const msg = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
        const fn = methods[msg.method];
        out = fn
          ? { jsonrpc: '2.0', id: msg.id, result: await fn(...(msg.params ?? [])) }
          : { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } };
      } catch {
        out = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      const body = JSON.stringify(out);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
} else if (kind === 'l2node') {
  const service = new RpcService({
    host: '127.0.0.1',
    port: 0,
    adminHost: '127.0.0.1',
    adminPort: 0,
    maxBodySize: 1024 * 1024,
    maxBatchSize: 100,
    corsOrigin: '*',
    dataDirectory: undefined,
    adminApiKeyHash: undefined,
    disableAdminApiKey: true,
    resetAdminApiKey: false,
    versions: { l1ChainId: 31337, rollupVersion: 1, packageVersion: '0.1.0' },
    handlers: { node_getBlockNumber: async () => 12345, node_getBlock: async () => heavy },
    status: () => ({ serving: true, body: { status: 'ok' } }),
    notServing: () => undefined,
    log: pino({ level: 'silent' }),
    print: () => {},
  });
  await service.start();
  process.stdout.write(`${JSON.stringify({ port: Number(new URL(service.publicUrl).port) })}\n`);
} else {
  process.stderr.write('usage: bench-server.js <bare|l2node>\n');
  process.exit(2);
}
