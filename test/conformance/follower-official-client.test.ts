import { createAztecNodeAdminClient, createAztecNodeClient } from '@aztec/stdlib/interfaces/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initAztecOracle } from '../helpers/aztec-oracle.js';
import { type RunningNode, spawnNode } from '../helpers/spawn-node.js';
import { ADMIN_CASES, PUBLIC_CASES } from './conformance-cases.js';
import { type Callable, runCases } from './run-cases.js';

/**
 * The official Aztec 4.1.2 clients against a follower (issue 7): every conformance case, on a node whose chain,
 * identity and L1 addresses come from its upstream and whose sendTx goes on to it. The cases are the ones
 * test/conformance/official-client.test.ts runs on a dev node.
 */
let dev: RunningNode;
let follower: RunningNode;

beforeAll(async () => {
  await initAztecOracle();
  dev = await spawnNode({ args: ['--disable-admin-api-key'] });
  follower = await spawnNode({
    args: ['--disable-admin-api-key', '--sync-from', dev.publicUrl, '--archiver-polling-interval-ms', '100'],
  });
}, 60_000);
afterAll(async () => {
  await follower?.stop();
  await dev?.stop();
});

describe('the official 4.1.2 clients against a follower', () => {
  it('accept every answer of the public and admin cases', async () => {
    await runCases(createAztecNodeClient(follower.publicUrl) as unknown as Callable, PUBLIC_CASES);
    await runCases(createAztecNodeAdminClient(follower.adminUrl) as unknown as Callable, ADMIN_CASES);
  });

  it("see the upstream's identity through the follower's version headers and node info", async () => {
    const client = createAztecNodeClient(follower.publicUrl, { l1ChainId: 31337, rollupVersion: 1 });
    const [info, upstreamInfo] = await Promise.all([
      client.getNodeInfo(),
      createAztecNodeClient(dev.publicUrl).getNodeInfo(),
    ]);
    expect(info.l1ContractAddresses).toEqual(upstreamInfo.l1ContractAddresses);
    expect([info.l1ChainId, info.rollupVersion]).toEqual([upstreamInfo.l1ChainId, upstreamInfo.rollupVersion]);
  });
});
