/**
 * The deployment onto an L1 of the user's own that mines on a clock (anvil `--block-time 1`, as Aztec's local
 * network runs it), not on each tx. forge's default broadcast sends every tx at once; those past a block's gas
 * limit were dropped by anvil and forge waited for ever (CI saw the same with automine on a loaded machine).
 */
import { RegistryAbi } from '@aztec/l1-artifacts/RegistryAbi';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { result } from '../helpers/mempool-e2e.js';
import { spawnAnvil, type TestAnvil } from '../helpers/spawn-anvil.js';
import { spawnNode } from '../helpers/spawn-node.js';

let anvil: TestAnvil;
let anvilUrl: string;

beforeAll(async () => {
  anvil = await spawnAnvil(['--block-time', '1']);
  anvilUrl = anvil.url;
}, 40_000);

afterAll(() => {
  anvil?.process.kill('SIGKILL');
});

it('deploys Aztec L1 contracts onto an L1 that mines a block a second, one tx a block', async () => {
  const node = await spawnNode({ args: ['--l1-rpc-urls', anvilUrl], readyTimeoutMs: 150_000 });
  try {
    const addresses = await result<Record<string, `0x${string}`>>(node.publicUrl, 'node_getL1ContractAddresses');
    const l1 = createPublicClient({ transport: http(anvilUrl), cacheTime: 0 });
    const rollup = await l1.readContract({
      address: addresses.registryAddress as `0x${string}`,
      abi: RegistryAbi,
      functionName: 'getCanonicalRollup',
    });
    expect(rollup.toLowerCase()).toBe(addresses.rollupAddress);
    // Every deployment tx was mined: the deployer's nonce is past them, and none is left in anvil's pool.
    const pending = await fetch(anvilUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'txpool_status', params: [] }),
    }).then((r) => r.json() as Promise<{ result: { pending: string; queued: string } }>);
    expect([Number(pending.result.pending), Number(pending.result.queued)]).toEqual([0, 0]);
  } finally {
    await node.stop();
  }
}, 180_000);
