// One benchmark server per process, so the load generator and the server each get their own core.
// Usage: node bench/rpc/bench-server.js <bare|bare-same-headers|l2node>; prints {"port":N} once listening.
//   bare              - node:http, JSON.parse, dispatch, JSON.stringify, content-type and content-length only
//                       (docs/baselines.md section 1.2): the practical limit the target is set against
//   bare-same-headers - the same handler writing the headers l2node's answers carry for a client that is not
//                       a browser (the version headers of spec part 1 with a dev node's values, and Vary on
//                       answers long enough to be compressed): the limit for our wire
//   l2node            - the node's own server code from dist/ (method table, jayson, param parsing, result
//                       encoding, headers), with node_getBlockNumber and node_getBlock bound to fixed values
import http from 'node:http';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../dist/daemon/config/published-chain-values.js';
import { PACKAGE_VERSION } from '../../dist/daemon/package-version.js';
import { RPC_METHODS } from '../../dist/rpc/method-table.js';
import { GZIP_THRESHOLD, jsonResponseHeaders } from '../../dist/rpc/server/rpc-listener.js';
import { RpcService } from '../../dist/rpc/server/rpc-service.js';
import { versionHeaders } from '../../dist/rpc/server/version-headers.js';
// The tests' options of an in-process server (test/helpers), loaded as TypeScript: it imports only types.
import { rpcServiceOptions } from '../../test/helpers/rpc-service-options.ts';
import { heavyPayload } from './heavy-payload.js';

const kind = process.argv[2];
// node_getBlock's handler returns a block whose toJSON builds the payload, as an L2Block does; the bare
// servers' JSON.stringify calls that toJSON too, so every server pays the same for it.
const payload = heavyPayload();
const heavy = { toJSON: () => payload };
const handlers = { node_getBlockNumber: async () => 12345, node_getBlock: async () => heavy };
// The node's server needs a handler for every method of the table; the others are never called here.
const allHandlers = Object.fromEntries(
  Object.keys(RPC_METHODS).map((name) => [name, handlers[name] ?? (async () => Promise.reject(new Error(name)))]),
);
// What a dev node started with defaults announces (its L1 rollup address is not known).
const versions = {
  l1ChainId: 31337,
  rollupVersion: 1,
  l2ProtocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH.toString(),
  l2CircuitsVkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT.toString(),
  packageVersion: PACKAGE_VERSION,
};

function bareServer(headersFor) {
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let out;
      try {
        const msg = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
        const fn = handlers[msg.method];
        out = fn
          ? { jsonrpc: '2.0', id: msg.id, result: await fn(...(msg.params ?? [])) }
          : { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } };
      } catch {
        out = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      const body = JSON.stringify(out);
      res.writeHead(200, headersFor(Buffer.byteLength(body), body.length));
      res.end(body);
    });
  });
}

function listen(server) {
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
}

if (kind === 'bare') {
  listen(bareServer((length) => ({ 'content-type': 'application/json', 'content-length': length })));
} else if (kind === 'bare-same-headers') {
  const headers = jsonResponseHeaders(versionHeaders(versions));
  const varying = [...headers, 'vary', 'Accept-Encoding'];
  listen(
    bareServer((length, chars) => [...(chars > GZIP_THRESHOLD ? varying : headers), 'content-length', String(length)]),
  );
} else if (kind === 'l2node') {
  const service = new RpcService(rpcServiceOptions({ versions, handlers: allHandlers }));
  await service.start();
  process.stdout.write(`${JSON.stringify({ port: Number(new URL(service.publicUrl).port) })}\n`);
} else {
  process.stderr.write('usage: bench-server.js <bare|bare-same-headers|l2node>\n');
  process.exit(2);
}
