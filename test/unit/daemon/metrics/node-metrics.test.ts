import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import { NodeLogger } from '../../../../src/daemon/logging/logger.js';
import { L2Node } from '../../../../src/daemon/node.js';
import { call } from '../../../helpers/mempool-e2e.js';
import { parsePrometheusText, sumOf } from '../../../helpers/prometheus-text.js';

/**
 * Two nodes in one process (as tests and tools run them), each with its metrics listener: each node counts in a
 * registry of its own, so neither start collides with the other and each scrape shows that node's calls only.
 */
const nodes: L2Node[] = [];

async function startNode(): Promise<L2Node> {
  const flags = {
    port: '0',
    'admin-port': '0',
    'metrics-port': '0',
    'disable-admin-api-key': true,
    'log-level': 'error',
    'local-network-setup': 'false',
  };
  const { config } = resolveConfig(flags, {});
  const logger = new NodeLogger({ spec: config.logLevel, format: 'json', destination: new PassThrough() });
  const node = await L2Node.init(config, logger, { print: () => {} });
  nodes.push(node);
  await node.start();
  return node;
}

beforeAll(async () => {
  await startNode();
  await startNode();
}, 60_000);
afterAll(async () => {
  for (const node of nodes) await node.stop();
});

describe('NodeMetrics in one process', () => {
  it('keeps one registry per node: calls to one node are not counted by the other', async () => {
    const [a, b] = nodes as [L2Node, L2Node];
    for (let i = 0; i < 3; i++) await call(a.rpc.publicUrl as string, 'node_getBlockNumber');
    await call(b.rpc.publicUrl as string, 'node_getBlockNumber');
    const counted = async (node: L2Node) => {
      const text = await (await fetch(`${node.metrics.url}/metrics`)).text();
      const samples = parsePrometheusText(text);
      return {
        calls: sumOf(samples, 'l2node_rpc_requests_total', { method: 'node_getBlockNumber' }),
        rss: sumOf(samples, 'process_resident_memory_bytes'),
      };
    };
    const [ca, cb] = [await counted(a), await counted(b)];
    expect(ca.calls).toBe(3);
    expect(cb.calls).toBe(1);
    // The process series are the same process's, in both.
    expect(ca.rss).toBeGreaterThan(0);
    expect(cb.rss).toBeGreaterThan(0);
  });
});
