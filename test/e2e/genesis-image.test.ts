import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { GENESIS_BLOCK_HEADER_HASH } from '../../src/core/constants.js';
import { SPONSORED_FPC } from '../../src/core/contract/sponsored-fpc.js';
import { result } from '../helpers/mempool-e2e.js';
import { postJson, type RunningNode, spawnNode } from '../helpers/spawn-node.js';

/**
 * The genesis image of an in-memory dev node (src/daemon/store/genesis-image.ts): the first start saves its
 * database once it holds genesis in the cache directory, a later start with the same settings copies it, and a
 * start with other genesis settings computes its own. The nodes run one after the other on a cache directory of
 * this file's (XDG_CACHE_HOME); what they answer is compared with a node that computed its genesis.
 */
const cache = mkdtempSync(join(tmpdir(), 'l2node-genesis-cache-'));
const images = () => readdirSync(join(cache, 'l2node', 'genesis')).filter((f) => f.endsWith('.sqlite'));
const env = { XDG_CACHE_HOME: cache };

afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** Block 0's header, and block 1's state (mined on request) with the sequencer's timing out of the way. */
async function genesisAndBlock1(args: string[] = []) {
  const node: RunningNode = await spawnNode({ env, args });
  try {
    const header0 = BlockHeader.fromJSON(await result(node.publicUrl, 'node_getBlockHeader', [0]));
    // Recorded at block 0 (with --sponsored-fpc), from the image too.
    const address = SPONSORED_FPC.address.toString();
    const fpc = await result(node.publicUrl, 'node_getContract', [address]);
    const fpcClass = await result(node.publicUrl, 'node_getContractClass', [
      SPONSORED_FPC.instance.currentContractClassId.toString(),
    ]);
    const mined = await postJson(
      node.adminUrl,
      { jsonrpc: '2.0', id: 1, method: 'nodeDev_mineBlocks', params: [1] },
      { 'x-api-key': node.adminKey as string },
    );
    expect((mined.body as { result?: unknown[] }).result).toHaveLength(1);
    const header1 = BlockHeader.fromJSON(await result(node.publicUrl, 'node_getBlockHeader', [1]));
    return {
      hash0: header0.hash().value,
      state0: header0.state,
      state1: header1.state,
      last1: header1.lastArchive,
      fpc,
      fpcClass,
    };
  } finally {
    await node.stop();
  }
}

describe('genesis image', () => {
  let computed: Awaited<ReturnType<typeof genesisAndBlock1>>;

  it('the first start computes genesis and saves the image', async () => {
    computed = await genesisAndBlock1();
    expect(images()).toHaveLength(1);
  });

  it('a start with the same settings copies the image (not saved again) and answers as the computed one', async () => {
    const [image] = images();
    const saved = statSync(join(cache, 'l2node', 'genesis', image as string)).mtimeMs;
    const fromImage = await genesisAndBlock1();
    expect(images()).toEqual([image]);
    expect(statSync(join(cache, 'l2node', 'genesis', image as string)).mtimeMs).toBe(saved);
    expect(fromImage.hash0).toBe(computed.hash0);
    expect(fromImage.state0).toEqual(computed.state0);
    // Block 1 is built on the trees' rows that the image holds.
    expect(fromImage.state1).toEqual(computed.state1);
    expect(fromImage.last1).toEqual(computed.last1);
    expect(computed.fpc).toMatchObject({ address: SPONSORED_FPC.address.toString() });
    expect(computed.fpcClass).toBeTruthy();
    expect(fromImage.fpc).toEqual(computed.fpc);
    expect(fromImage.fpcClass).toEqual(computed.fpcClass);
  });

  it("other genesis settings never take that image: Aztec 4.1.2's genesis is computed and saved beside it", async () => {
    const bare = await genesisAndBlock1(['--prefunded-accounts', 'none', '--sponsored-fpc', 'false']);
    expect(bare.hash0).toBe(GENESIS_BLOCK_HEADER_HASH);
    expect(bare.hash0).not.toBe(computed.hash0);
    expect(bare.fpc).toBeFalsy();
    expect(images()).toHaveLength(2);
  });

  it('an image that is not a database is replaced: the start computes genesis as without one', async () => {
    for (const image of images()) writeFileSync(join(cache, 'l2node', 'genesis', image), 'not a database');
    const again = await genesisAndBlock1();
    expect(again.hash0).toBe(computed.hash0);
    expect(again.state1).toEqual(computed.state1);
    expect(images().filter((f) => statSync(join(cache, 'l2node', 'genesis', f)).size > 100)).toHaveLength(1);
  });
});
