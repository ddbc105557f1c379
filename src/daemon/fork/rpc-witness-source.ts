import type { AztecAddress } from '../../core/aztec-address.js';
import type { Fr } from '../../core/fr.js';
import { readField32 } from '../../core/serialize/field-bytes.js';
import { RpcClient } from '../../rpc/client/rpc-client.js';
import type { RpcMethodName } from '../../rpc/method-table.js';
import type { IndexedLeafWitness } from '../../rpc/methods/trees.js';
import type { IndexWithPath, SiblingNodes } from '../../rpc/result-codecs.js';
import { MerkleTreeId, treeInfo } from '../world-state/merkle-tree-id.js';
import { emptyTreePath, type UpstreamBlockEffects } from './upstream-frontier.js';
import type { UpstreamLowLeaf, UpstreamWitness, UpstreamWitnessSource } from './upstream-state-fetcher.js';

/** The sibling-path method of each tree that has one (l2node extensions; 4.1 removed them). */
const SIBLING_PATH_METHODS: Partial<Record<MerkleTreeId, RpcMethodName>> = {
  [MerkleTreeId.NULLIFIER_TREE]: 'node_getNullifierSiblingPath',
  [MerkleTreeId.NOTE_HASH_TREE]: 'node_getNoteHashSiblingPath',
  [MerkleTreeId.PUBLIC_DATA_TREE]: 'node_getPublicDataSiblingPath',
  [MerkleTreeId.ARCHIVE]: 'node_getArchiveSiblingPath',
};

export interface RpcWitnessSourceOptions {
  readonly url: string;
  /** Per call (a stuck upstream becomes a clear error, not a stalled fork). Default 20 s. */
  readonly timeoutMs?: number;
  readonly maxResponseSize: number;
}

/**
 * What a lazy fork reads of its upstream over its public JSON-RPC: 4.1.2's witness methods (membership witnesses
 * by value, low leaves, node_findLeavesIndexes), its blocks (to find each tree's last leaf), the contracts and
 * classes published before the fork, and the tagged logs below it; l2node's sibling-path extension only for a
 * path by index the fork has no leaf value for.
 */
export class RpcWitnessSource implements UpstreamWitnessSource {
  readonly url: string;
  private readonly client: RpcClient;

  constructor(o: RpcWitnessSourceOptions) {
    this.url = o.url.replace(/\/+$/, '');
    this.client = new RpcClient({
      url: this.url,
      timeoutMs: o.timeoutMs ?? 20_000,
      maxResponseSize: o.maxResponseSize,
    });
  }

  /** The extension's sibling path by index (an l2node upstream; a 4.1.2 node answers "method not found"). */
  async siblingPath(tree: MerkleTreeId, block: number, index: bigint): Promise<readonly bigint[]> {
    const method = SIBLING_PATH_METHODS[tree];
    if (method) {
      return (await this.client.call(
        method as 'node_getNoteHashSiblingPath',
        block,
        index.toString(),
      )) as readonly bigint[];
    }
    return emptyTreePath(tree);
  }

  async findLeaves(
    tree: MerkleTreeId,
    block: number,
    values: readonly bigint[],
  ): Promise<readonly ({ index: bigint; blockNumber: number } | undefined)[]> {
    const found = await this.client.call('node_findLeavesIndexes', block, tree, values.map(hex64));
    if (found.length !== values.length) {
      throw new Error(`node_findLeavesIndexes answered ${found.length} entries for ${values.length} values`);
    }
    return found.map((f) => f ?? undefined);
  }

  async witness(tree: MerkleTreeId, block: number, value: bigint): Promise<UpstreamWitness | undefined> {
    const field = hex64(value);
    const indexed = (w: IndexedLeafWitness | null | undefined) =>
      w ? { index: w.index, preimage: w.leafPreimage, siblingPath: nodesOf(w.siblingPath) } : undefined;
    const plain = (w: IndexWithPath | null | undefined) =>
      w ? { index: w.index, siblingPath: nodesOf(w.siblingPath) } : undefined;
    switch (tree) {
      case MerkleTreeId.NULLIFIER_TREE:
        return indexed(await this.client.call('node_getNullifierMembershipWitness', block, field));
      case MerkleTreeId.PUBLIC_DATA_TREE: {
        // The witness of a slot the tree does not hold is its low leaf's: not this slot's.
        const w = indexed(await this.client.call('node_getPublicDataWitness', block, field));
        return w?.preimage.key === value ? w : undefined;
      }
      case MerkleTreeId.NOTE_HASH_TREE:
        return plain(await this.client.call('node_getNoteHashMembershipWitness', block, field));
      case MerkleTreeId.ARCHIVE:
        return plain(await this.client.call('node_getBlockHashMembershipWitness', block, field));
      default:
        throw new Error(`no node serves witnesses of ${treeInfo(tree).name} by value`);
    }
  }

  async blockHash(n: number): Promise<bigint | undefined> {
    return (await this.client.call('node_getBlockHeader', n))?.hash().value;
  }

  async blockEffects(from: number, limit: number): Promise<readonly UpstreamBlockEffects[]> {
    const blocks = await this.client.call('node_getBlocks', from, limit);
    return blocks.map((b) => ({
      number: b.number,
      hash: b.hash().value,
      publicDataSize: Number(b.header.state.partial.publicDataTree.nextAvailableLeafIndex),
      txs: b.body.txEffects.map((tx) => ({
        noteHashes: tx.noteHashes.map((f) => f.value),
        nullifiers: tx.nullifiers.map((f) => f.value),
        publicDataSlots: tx.publicDataWrites.map((w) => w.leafSlot.value),
      })),
    }));
  }

  async oldestStateBlock(): Promise<number> {
    return (await this.client.call('node_getWorldStateSyncStatus')).oldestHistoricBlockNumber;
  }

  /** node_getPrivateLogsByTags on the upstream (a lazy fork merges the upstream's logs below it with its own). */
  privateLogsByTags(tags: readonly Fr[], page: number) {
    return this.client.call(
      'node_getPrivateLogsByTags',
      tags.map((t) => t.toString()),
      page,
    );
  }

  /** node_getPublicLogsByTagsFromContract on the upstream. */
  publicLogsByTagsFromContract(contract: AztecAddress, tags: readonly Fr[], page: number) {
    return this.client.call(
      'node_getPublicLogsByTagsFromContract',
      contract.toString(),
      tags.map((t) => t.toString()),
      page,
    );
  }

  /** node_getTxEffect on the upstream: where a tx mined there is (a lazy fork checks it against the block). */
  async txEffect(txHash: string) {
    return (await this.client.call('node_getTxEffect', txHash)) ?? undefined;
  }

  /**
   * The number of the upstream's block with this hash or archive root (node_getBlockHeaderByArchive, or
   * node_getBlockByHash: 4.1.2 has no header by hash); undefined when it has none. A lazy fork takes the block
   * itself from its checked cache by that number.
   */
  async blockNumberOf(by: 'hash' | 'archive', value: string): Promise<number | undefined> {
    const found =
      by === 'archive'
        ? ((await this.client.call('node_getBlockHeaderByArchive', value)) ?? undefined)
        : ((await this.client.call('node_getBlockByHash', value)) ?? undefined)?.header;
    return found?.globalVariables.blockNumber;
  }

  async contract(address: bigint) {
    return (await this.client.call('node_getContract', hex64(address))) ?? undefined;
  }

  async contractClass(id: bigint) {
    return (await this.client.call('node_getContractClass', hex64(id))) ?? undefined;
  }

  async lowLeaf(tree: MerkleTreeId, block: number, key: bigint): Promise<UpstreamLowLeaf | undefined> {
    const field = hex64(key);
    const w =
      tree === MerkleTreeId.NULLIFIER_TREE
        ? await this.client.call('node_getLowNullifierMembershipWitness', block, field)
        : await this.client.call('node_getPublicDataWitness', block, field);
    return w ? { index: w.index, preimage: w.leafPreimage, siblingPath: nodesOf(w.siblingPath) } : undefined;
  }
}

function hex64(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

function nodesOf(path: SiblingNodes): bigint[] {
  return path.nodes.map((n) => readField32(n));
}
