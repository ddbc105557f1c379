import type { AztecAddress } from '../../core/aztec-address.js';
import type { Fr } from '../../core/fr.js';
import { readField32 } from '../../core/serialize/field-bytes.js';
import { RpcClient } from '../../rpc/client/rpc-client.js';
import type { RpcMethodName } from '../../rpc/method-table.js';
import { emptySubtreeRoot } from '../world-state/empty-subtrees.js';
import { MerkleTreeId, treeInfo } from '../world-state/merkle-tree-id.js';
import type { UpstreamLowLeaf, UpstreamWitnessSource } from './upstream-state-fetcher.js';

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
 * What a lazy fork reads of its upstream over its public JSON-RPC: the witness methods (node_getPublicDataWitness
 * and node_getLowNullifierMembershipWitness for low leaves, the trees' sibling-path methods for everything else),
 * the contracts and classes published before the fork, and the tagged logs below it.
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

  async findLeaf(
    tree: MerkleTreeId,
    block: number,
    value: bigint,
  ): Promise<{ index: bigint; blockNumber: number } | undefined> {
    const [found] = await this.client.call('node_findLeavesIndexes', block, tree, [
      `0x${value.toString(16).padStart(64, '0')}`,
    ]);
    return found ?? undefined;
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

  async contract(address: bigint) {
    return (await this.client.call('node_getContract', `0x${address.toString(16).padStart(64, '0')}`)) ?? undefined;
  }

  async contractClass(id: bigint) {
    return (await this.client.call('node_getContractClass', `0x${id.toString(16).padStart(64, '0')}`)) ?? undefined;
  }

  async lowLeaf(tree: MerkleTreeId, block: number, key: bigint): Promise<UpstreamLowLeaf | undefined> {
    const field = `0x${key.toString(16).padStart(64, '0')}`;
    const w =
      tree === MerkleTreeId.NULLIFIER_TREE
        ? await this.client.call('node_getLowNullifierMembershipWitness', block, field)
        : await this.client.call('node_getPublicDataWitness', block, field);
    return (
      w && {
        index: w.index,
        preimage: w.leafPreimage,
        siblingPath: w.siblingPath.nodes.map((n) => readField32(n)),
      }
    );
  }
}

/**
 * The path of any leaf of a tree holding only zeros: what a lazy fork takes for the L1-to-L2 message tree, whose
 * paths no node serves by index. A chain that never had a message has only padding there; the fork checks the
 * path against the upstream's root and refuses with a clear error when the tree holds messages.
 */
export function emptyTreePath(tree: MerkleTreeId): bigint[] {
  return Array.from({ length: treeInfo(tree).height }, (_, level) => readField32(emptySubtreeRoot(level)));
}
