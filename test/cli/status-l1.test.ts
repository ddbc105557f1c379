import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamL1 } from '../../src/rpc/node-stream-event.js';
import { envelopeOf, l2node } from '../helpers/cli.js';
import { hash, PUBLISHER, proposalTx, sampleL1 } from '../helpers/stream-fixtures.js';

/**
 * `l2node status` on what GET /status says of a node's L1 when its publisher is in trouble: a node that is
 * still starting (503, so the command reads GET /status alone) answers with an L1 whose publisher is low on ETH,
 * whose last proposal failed and whose last proof landed. Every other request gets a JSON-RPC error.
 */
const l1: StreamL1 = sampleL1({
  publisher: { address: PUBLISHER, balanceWei: '1000000000000000', lowBalance: true },
  lastProposal: proposalTx(13, 0, {
    ok: false,
    txHash: null,
    l1BlockNumber: undefined,
    error: 'insufficient funds for gas * price + value',
  }),
  lastProof: {
    kind: 'proof',
    ok: true,
    txHash: hash(0xcd03),
    epoch: 3,
    fromCheckpoint: 9,
    toCheckpoint: 12,
    l1BlockNumber: '1230',
    gasUsed: '3600000',
    seconds: 2.5,
    at: '2026-01-02T03:04:05.000Z',
  },
});

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/status') {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'starting', state: 'starting', ready: false, l1 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'the node is starting' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('l2node status with an L1 publisher in trouble', () => {
  it('prints the last proposal and proof, marks the balance LOW, and warns about both', async () => {
    const run = await l2node(['status', '--node-url', url, '--admin-url', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^l1\s+chain 31337 at http:\/\/127\.0\.0\.1:8545, block 1234; .*LOW 0\.001 ETH$/m);
    expect(run.stdout).toMatch(
      /^l1 txs\s+last proposal: checkpoint 13 FAILED: insufficient funds for gas \* price \+ value, last proof: epoch 3 \(checkpoints 9 to 12\) in L1 block 1230 \(0x00000000…00cd03\)$/m,
    );
    expect(run.stderr).toContain(`warning: the L1 publisher ${PUBLISHER} holds 0.001 ETH, less than one proposal`);
    expect(run.stderr).toContain(
      'warning: the last L1 proposal (checkpoint 13) failed: insufficient funds for gas * price + value; the node retries',
    );
    expect(run.stderr).not.toContain('the last L1 proof');
  });

  it('--json carries the l1 part as GET /status has it, with the warnings', async () => {
    const envelope = envelopeOf(await l2node(['status', '--json', '--node-url', url, '--admin-url', url]));
    expect((envelope.result as { l1: unknown }).l1).toEqual(l1);
    expect(envelope.warnings).toHaveLength(2);
  });
});
