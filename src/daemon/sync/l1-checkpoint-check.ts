import { RollupAbi } from '@aztec/l1-artifacts/RollupAbi';
import { BaseError, ContractFunctionRevertedError, type PublicClient } from 'viem';
import { toHex64 } from '../../core/fr.js';
import { readFinalizedCheckpoint } from '../l1/finalized-checkpoint.js';
import { l1PublicClient } from '../l1/l1-client.js';
import type { L1Deployment } from '../l1/l1-deployment.js';
import type { Logger } from '../logging/logger.js';
import { CheckpointNotOnL1Error, L1ReadError } from './l1-checkpoint-errors.js';
import { SyncRefusedError } from './sync-refused-error.js';
import type { UpstreamCheckpoint, UpstreamIdentity } from './upstream.js';
import { UpstreamMismatchError } from './upstream-identity.js';

/** The rollup's chain as L1 holds it now (checkpoint numbers). */
export interface RollupTips {
  /** The last checkpoint proposed to the rollup (`getTips().pending`). */
  readonly pending: number;
  /** `getProvenCheckpointNumber()` at L1's latest block. */
  readonly proven: number;
  /** `getProvenCheckpointNumber()` at L1's `finalized` block (0 while that block is older than the rollup). */
  readonly finalized: number;
}

/** Checkpoint `n` as the rollup holds it, read at one L1 block. */
export interface RollupCheckpoint {
  /** The rollup's pending checkpoint at that block: above it, `n` is not (or no longer) on L1. */
  readonly pending: number;
  /** `archiveAt(n)`. */
  readonly archive: bigint;
  /**
   * `getCheckpoint(n).headerHash`; undefined when the rollup no longer keeps it: its checkpoint log is a ring
   * buffer of a few epochs, while the archive of every checkpoint stays.
   */
  readonly headerHash: bigint | undefined;
}

/** What the check reads from the rollup contract: viem on the node's L1 (rollupCheckpointReader), a fake in tests. */
export interface RollupCheckpointReader {
  tips(): Promise<RollupTips>;
  checkpoint(n: number): Promise<RollupCheckpoint>;
}

/**
 * A follower with an L1 (docs/follower.md): its upstream's checkpoints are taken only as the rollup contract
 * holds them. Each poll reads the rollup's tips: the follower records checkpoints up to the rollup's pending one
 * (the blocks after it are synced as proposed blocks), and its proven and finalized tips are the rollup's. Before
 * a checkpoint is recorded, its archive root must be the rollup's `archiveAt(n)` and its header's hash the
 * rollup's `getCheckpoint(n).headerHash` (the hash the rollup computed from the header it was proposed with:
 * sha256 of the packed header, as a field); one that differs is refused with both values.
 */
export class L1CheckpointCheck {
  private latest: RollupTips = { pending: 0, proven: 0, finalized: 0 };
  /** The checkpoint the follower waits on L1 for, logged once per checkpoint. */
  private waitingFor: number | undefined;

  constructor(
    private readonly o: {
      readonly rollup: RollupCheckpointReader;
      /** The deployment the follower attached to (--registry-address). */
      readonly deployment: Pick<L1Deployment, 'chainId' | 'rollupVersion' | 'addresses'>;
      readonly upstreamUrl: string;
      readonly log: Logger;
    },
  ) {}

  /** At start: the upstream must settle on the same rollup as this node's L1, else its checkpoints cannot be. */
  checkUpstream(identity: UpstreamIdentity): void {
    const { deployment: d, upstreamUrl } = this.o;
    const theirs = identity.l1ContractAddresses.rollupAddress.toLowerCase();
    const ours = d.addresses.rollupAddress;
    if (identity.l1ChainId !== d.chainId || theirs !== ours || identity.rollupVersion !== d.rollupVersion) {
      throw new UpstreamMismatchError(
        `the upstream ${upstreamUrl} settles on rollup ${theirs} (version ${identity.rollupVersion}) on L1 chain ` +
          `${identity.l1ChainId}, but --registry-address ${d.addresses.registryAddress} names rollup ${ours} ` +
          `(version ${d.rollupVersion}) on L1 chain ${d.chainId}: give the registry of the upstream's deployment`,
      );
    }
  }

  /** The rollup's tips as last read. */
  get tips(): RollupTips {
    return this.latest;
  }

  /**
   * Reads the rollup's tips (each poll) and answers the highest checkpoint the follower may record now: the
   * upstream's, but no further than L1's pending one. `recorded` is the follower's last checkpoint: when the
   * next one is the upstream's but not on L1 yet, that is said once at info.
   */
  async poll(upstreamCheckpointed: number, recorded: number): Promise<number> {
    this.latest = await this.o.rollup.tips();
    const limit = Math.min(upstreamCheckpointed, this.latest.pending);
    const next = recorded + 1;
    if (limit < next && next <= upstreamCheckpointed) this.waiting(next);
    return limit;
  }

  /**
   * Before checkpoint `c` is recorded (nothing of it is stored yet): throws SyncRefusedError when the rollup
   * holds another archive or header hash for it, CheckpointNotOnL1Error when the rollup does not hold it.
   */
  async verify(c: UpstreamCheckpoint): Promise<void> {
    const l1 = await this.o.rollup.checkpoint(c.number);
    if (c.number > l1.pending) {
      this.waiting(c.number);
      throw new CheckpointNotOnL1Error(`checkpoint ${c.number} is not on L1 (the rollup's pending is ${l1.pending})`);
    }
    const refuse = (reason: string): never => {
      throw new SyncRefusedError(`checkpoint ${c.number}`, c.blocks[0]?.number ?? 0, reason);
    };
    const rollup = this.o.deployment.addresses.rollupAddress;
    if (l1.archive !== c.archiveRoot.value) {
      refuse(`its archive root ${c.archiveRoot} is not the one the rollup ${rollup} holds, ${toHex64(l1.archive)}`);
    }
    const hash = c.header.hash().value;
    if (l1.headerHash === undefined) {
      // Older than the rollup's checkpoint log: the archive, which commits to every block, is what L1 still holds.
      this.o.log.debug(
        { checkpoint: c.number },
        `checkpoint ${c.number}: checked its archive on L1 (header hash no longer kept)`,
      );
    } else if (l1.headerHash !== hash) {
      refuse(`its header hash ${toHex64(hash)} is not the one the rollup ${rollup} holds, ${toHex64(l1.headerHash)}`);
    }
    if (this.waitingFor !== undefined && this.waitingFor <= c.number) this.waitingFor = undefined;
  }

  private waiting(n: number): void {
    if (this.waitingFor === n) return;
    this.waitingFor = n;
    const { log, upstreamUrl, deployment } = this.o;
    log.info(
      { checkpoint: n, l1Pending: this.latest.pending, rollup: deployment.addresses.rollupAddress },
      `checkpoint ${n} of ${upstreamUrl} is not on L1 yet (the rollup holds up to checkpoint ${this.latest.pending}): ` +
        'its blocks are synced as proposed, and it is recorded once the rollup holds it',
    );
  }
}

/** The check of a follower attached to `deployment` on the L1 at `rpcUrls` (--l1-rpc-urls). */
export function followerL1Check(o: {
  readonly rpcUrls: readonly string[];
  readonly deployment: L1Deployment;
  readonly upstreamUrl: string;
  readonly log: Logger;
}): L1CheckpointCheck {
  const client = l1PublicClient({ rpcUrls: o.rpcUrls, chainId: o.deployment.chainId });
  return new L1CheckpointCheck({ ...o, rollup: rollupCheckpointReader(client, o.deployment) });
}

/** Reads the rollup of `deployment` through viem with the official 4.1.2 ABI. */
export function rollupCheckpointReader(
  client: PublicClient,
  deployment: Pick<L1Deployment, 'addresses' | 'l1BlockAtGenesis'>,
): RollupCheckpointReader {
  const rollup = { address: deployment.addresses.rollupAddress as `0x${string}`, abi: RollupAbi } as const;
  let lastFinalized = 0;
  const reader: RollupCheckpointReader = {
    async tips() {
      const tips = await client.readContract({ ...rollup, functionName: 'getTips' });
      // An L1 that cannot answer for its finalized block (anvil reloaded from its state file) keeps the last one.
      lastFinalized = await readFinalizedCheckpoint(client, rollup.address, deployment.l1BlockAtGenesis).catch(
        () => lastFinalized,
      );
      return { pending: Number(tips.pending), proven: Number(tips.proven), finalized: lastFinalized };
    },
    async checkpoint(n) {
      // One L1 block for all reads: a proposal or prune between them cannot mix two states.
      const blockNumber = await client.getBlockNumber();
      const [tips, archive, headerHash] = await Promise.all([
        client.readContract({ ...rollup, functionName: 'getTips', blockNumber }),
        client.readContract({ ...rollup, functionName: 'archiveAt', args: [BigInt(n)], blockNumber }),
        client
          .readContract({ ...rollup, functionName: 'getCheckpoint', args: [BigInt(n)], blockNumber })
          .then((log) => BigInt(log.headerHash) as bigint | undefined)
          .catch((err: unknown) => {
            if (revertName(err) === 'Rollup__UnavailableTempCheckpointLog') return undefined;
            throw err;
          }),
      ]);
      return { pending: Number(tips.pending), archive: BigInt(archive), headerHash };
    },
  };
  const failed = (what: string) => (err: unknown) => {
    const why = err instanceof BaseError ? err.shortMessage : (err as Error).message;
    throw new L1ReadError(`reading ${what} of the rollup ${rollup.address} on L1 failed: ${why}`);
  };
  return {
    tips: () => reader.tips().catch(failed('the tips')),
    checkpoint: (n) => reader.checkpoint(n).catch(failed(`checkpoint ${n}`)),
  };
}

function revertName(err: unknown): string | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}
