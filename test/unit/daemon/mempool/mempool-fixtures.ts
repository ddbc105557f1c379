import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { Body } from '../../../../src/core/block/body.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { Fr } from '../../../../src/core/fr.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { computeFeePayerBalanceLeafSlot } from '../../../../src/core/hash/siloing.js';
import { PublicDataWrite } from '../../../../src/core/tx/public-data-write.js';
import { RevertCode } from '../../../../src/core/tx/revert-code.js';
import type { Tx } from '../../../../src/core/tx/tx.js';
import { TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import { TxEffect } from '../../../../src/core/tx/tx-effect.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../../../src/daemon/config/published-chain-values.js';
import { worldStateReader } from '../../../../src/daemon/mempool/committed-state-reader.js';
import { Mempool, type MempoolSettings } from '../../../../src/daemon/mempool/mempool.js';
import { openNodeDatabase, type SqliteDatabase } from '../../../../src/daemon/store/node-database.js';
import { WorldState } from '../../../../src/daemon/world-state/world-state.js';

export const MIN_FEES = new GasFees(0n, 1_000n);
/** Fee limit of a default tx at max fee 1000 per L2 gas: 6,540,000 x 1000. */
export const DEFAULT_FEE_LIMIT = 6_540_000n * 1_000n;
export const BALANCE = 10n ** 15n;
export const PAYERS = [0x1001n, 0x1002n, 0x1003n, 0x1004n].map((v) => new AztecAddress(v));
/** A payer with a balance for exactly two default txs and a bit. */
export const POOR_PAYER = new AztecAddress(0x2001n);
export const POOR_BALANCE = DEFAULT_FEE_LIMIT * 2n + 5n;
/** Seconds; the clock the harness starts at. */
export const START_TIME = 1_800_000_000n;

export interface HarnessOptions {
  /** A database file; in memory when absent. */
  readonly file?: string;
  readonly settings?: Partial<MempoolSettings>;
}

/** A mempool on a real world state (in-memory or file SQLite), with prefunded payers and a settable clock. */
export class MempoolHarness {
  db!: SqliteDatabase;
  ws!: WorldState;
  mempool!: Mempool;
  readonly settings: { -readonly [K in keyof MempoolSettings]: MempoolSettings[K] };
  /** Seconds. */
  time = START_TIME;
  minFees = MIN_FEES;
  /** The header of the latest mined block (txs anchor to it). */
  latestHeader: BlockHeader | undefined;
  private txCount = 0;

  constructor(readonly options: HarnessOptions = {}) {
    this.settings = {
      l1ChainId: 31337,
      rollupVersion: 1,
      vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
      protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
      maxPendingTxCount: 1000,
      priceBumpPercentage: 10,
      txPublicSetupAllowListExtend: [],
      ...options.settings,
    };
    this.open();
  }

  /** Opens (or reopens) the database, the world state and the mempool. */
  open(): void {
    this.db = openNodeDatabase(this.options.file ?? null);
    const genesisPublicData = [
      ...PAYERS.map((p) => ({ slot: computeFeePayerBalanceLeafSlot(p.value), value: BALANCE })),
      { slot: computeFeePayerBalanceLeafSlot(POOR_PAYER.value), value: POOR_BALANCE },
    ];
    this.ws = WorldState.open(this.db, { genesisPublicData });
    this.mempool = new Mempool({
      db: this.db,
      state: worldStateReader(this.ws),
      settings: this.settings,
      minFees: () => this.minFees,
      now: () => Number(this.time) * 1000,
    });
  }

  /** Closes and reopens everything on the same file: what a node restart does. */
  reopen(): void {
    if (!this.options.file) throw new Error('reopen needs a database file');
    this.db.close();
    this.open();
  }

  close(): void {
    this.db.close();
  }

  /** A builder anchored to the latest block of the world state. */
  builder(): TxBuilder {
    return new TxBuilder({
      chainId: BigInt(this.settings.l1ChainId),
      rollupVersion: BigInt(this.settings.rollupVersion),
      vkTreeRoot: this.settings.vkTreeRoot,
      protocolContractsHash: this.settings.protocolContractsHash,
      anchorBlockHeader: this.latestHeader ?? BlockHeader.empty({ state: this.ws.getInitialStateReference() }),
    });
  }

  /** A valid tx: unique nullifier, default gas limits, max fee 1000 per L2 gas and the given priority fee. */
  tx(
    o: { priority?: bigint; maxFee?: bigint; payer?: AztecAddress; nullifiers?: bigint[]; expiration?: bigint } = {},
  ): Tx {
    this.txCount++;
    return this.builder().build({
      feePayer: o.payer ?? (PAYERS[0] as AztecAddress),
      txRequestHash: new Fr(BigInt(this.txCount) * 7919n + 1n),
      nullifiers: (o.nullifiers ?? []).map((n) => new Fr(n)),
      maxFeesPerGas: new GasFees(0n, o.maxFee ?? 1_000n),
      maxPriorityFeesPerGas: new GasFees(0n, o.priority ?? 0n),
      expirationTimestamp: o.expiration,
      now: this.time,
    });
  }

  /**
   * Mines a block with these txs' effects (their nullifiers; each fee payer pays `fee`) into the world state and
   * tells the mempool, in one transaction, as applyBlock does. Returns the block.
   */
  mine(txs: readonly Tx[], o: { timestamp?: bigint; fee?: bigint; extraNullifiers?: bigint[] } = {}): L2Block {
    const fee = o.fee ?? 1_000n;
    const view = this.ws.view('latest');
    const effects = txs.map((tx) => {
      const slot = computeFeePayerBalanceLeafSlot(tx.data.feePayer.value);
      const balance = view.getPublicStorageAt(slot);
      return new TxEffect(
        RevertCode.OK,
        tx.txHash,
        new Fr(fee),
        [],
        tx.data.getNonEmptyNullifiers(),
        [],
        [new PublicDataWrite(new Fr(slot), new Fr(balance - fee))],
        [],
        [],
        [],
      );
    });
    if (o.extraNullifiers?.length) {
      // Another tx's effects: nullifiers the pool never saw.
      const hash = new TxHash(0xeeeen + BigInt(this.ws.latestBlockNumber));
      effects.push(
        new TxEffect(
          RevertCode.OK,
          hash,
          Fr.ZERO,
          [],
          o.extraNullifiers.map((n) => new Fr(n)),
          [],
          [],
          [],
          [],
          [],
        ),
      );
    }
    const fork = this.ws.fork();
    for (const e of effects) {
      fork.applyTxEffects({
        noteHashes: [],
        nullifiers: e.nullifiers.map((n) => n.value),
        publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: w.leafSlot.value, value: w.value.value })),
      });
    }
    fork.appendCheckpointMessages([]);
    const number = fork.blockNumber + 1;
    const header = BlockHeader.empty({
      lastArchive: fork.getArchiveSnapshot(),
      state: fork.getStateReference(),
      globalVariables: GlobalVariables.empty({
        blockNumber: number,
        slotNumber: number,
        timestamp: o.timestamp ?? this.time,
        gasFees: this.minFees,
      }),
    });
    let block: L2Block | undefined;
    this.db.transaction(() => {
      this.ws.commitFork(fork, { blockNumber: number, blockHash: header.hash().value });
      block = new L2Block(this.ws.getArchiveSnapshot(), header, new Body(effects), number, 0);
      this.mempool.onBlockApplied(block);
    })();
    this.latestHeader = header;
    if (!block) throw new Error('the block transaction did not run');
    return block;
  }
}
