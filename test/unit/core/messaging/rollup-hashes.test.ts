import { SpongeBlob as StdSpongeBlob } from '@aztec/blob-lib';
import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { L2Block as StdL2Block } from '@aztec/stdlib/block';
import { computeTransactionFee as stdFee } from '@aztec/stdlib/fees';
import { Gas as StdGas, GasFees as StdGasFees, GasSettings as StdGasSettings } from '@aztec/stdlib/gas';
import {
  accumulateCheckpointOutHashes as stdAccumulate,
  computeBlockOutHash as stdBlockOutHash,
  computeCheckpointOutHash as stdCheckpointOutHash,
  computeInHashFromL1ToL2Messages as stdInHash,
} from '@aztec/stdlib/messaging';
import { computeBlockHeadersHash as stdBlockHeadersHash } from '@aztec/stdlib/rollup';
import { TxEffect as StdTxEffect } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { blockBlobFields, txEffectBlobFieldCount, txEffectBlobFields } from '../../../../src/core/blob/blob-fields.js';
import { SpongeBlob } from '../../../../src/core/blob/sponge-blob.js';
import { computeBlockHeadersHash } from '../../../../src/core/block/block-headers-hash.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import { Gas } from '../../../../src/core/gas/gas.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { GasSettings } from '../../../../src/core/gas/gas-settings.js';
import { computeTransactionFee } from '../../../../src/core/gas/transaction-fee.js';
import { computeInHash } from '../../../../src/core/messaging/in-hash.js';
import {
  accumulateCheckpointOutHashes,
  computeBlockOutHash,
  computeCheckpointOutHash,
} from '../../../../src/core/messaging/out-hash.js';
import { TxEffect } from '../../../../src/core/tx/tx-effect.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

/** The blob encoding, sponge and small rollup trees against the published 4.1.2 libraries. */
beforeAll(async () => {
  await initAztecOracle();
});

const fr = (v: bigint) => new StdFr(v);

describe('blob fields', () => {
  it('encode tx effects as 4.1.2 does, including logs of every kind', async () => {
    const effects = [
      await StdTxEffect.random(),
      await StdTxEffect.random({ numNoteHashes: 64, numNullifiers: 64, numPrivateLogs: 64, numContractClassLogs: 1 }),
      await StdTxEffect.random({ maxEffects: 0, numPublicCallsPerTx: 0 }),
    ];
    for (const std of effects) {
      const ours = TxEffect.fromBuffer(std.toBuffer());
      expect(txEffectBlobFields(ours)).toEqual(std.toBlobFields().map((f) => f.toBigInt()));
      expect(txEffectBlobFieldCount(ours)).toBe(std.getNumBlobFields());
    }
  });

  it('encode blocks (first in checkpoint or not) as 4.1.2 does', async () => {
    for (const index of [0, 2]) {
      const std = await StdL2Block.random(7 as never, { txsPerBlock: 3, indexWithinCheckpoint: index as never });
      const ours = L2Block.fromBuffer(std.toBuffer());
      expect(blockBlobFields(ours.header, ours.body.txEffects, index === 0)).toEqual(
        std.toBlobFields().map((f) => f.toBigInt()),
      );
    }
  });
});

describe('SpongeBlob', () => {
  it('squeezes what the 4.1.2 sponge squeezes, across absorbs of any length, without being consumed', async () => {
    const std = StdSpongeBlob.init();
    const ours = SpongeBlob.init();
    for (const n of [1, 2, 5, 3, 7, 0, 11]) {
      const fields = Array.from({ length: n }, (_, i) => BigInt(n * 1000 + i));
      await std.absorb(fields.map(fr));
      ours.absorb(fields);
      expect(ours.squeeze()).toBe((await std.clone().squeeze()).toBigInt());
      expect(ours.squeeze()).toBe(ours.squeeze());
    }
    expect(ours.numAbsorbedFields).toBe(std.numAbsorbedFields);
  });

  it('refuses more fields than a checkpoint holds', () => {
    const s = SpongeBlob.init();
    expect(() => s.absorb(new Array(6 * 4096 + 1).fill(1n))).toThrow(/hold 24576 fields/);
  });
});

describe('checkpoint hashes', () => {
  it('inHash over padded messages', () => {
    const msgs = [5n, 6n, 7n];
    expect(computeInHash(msgs)).toBe(stdInHash(msgs.map(fr)).toBigInt());
    expect(computeInHash([])).toBe(stdInHash([]).toBigInt());
  });

  it('out hashes of txs, blocks and checkpoints, with empty ones compressed away', () => {
    const blocks = [[[1n, 2n, 3n], [], [4n]], [[]], [[5n], [6n, 7n, 8n, 9n, 10n]]];
    expect(computeBlockOutHash(blocks[0] as bigint[][])).toBe(
      stdBlockOutHash((blocks[0] as bigint[][]).map((t) => t.map(fr))).toBigInt(),
    );
    expect(computeCheckpointOutHash(blocks)).toBe(
      stdCheckpointOutHash(blocks.map((b) => b.map((t) => t.map(fr)))).toBigInt(),
    );
    expect(computeCheckpointOutHash([[[]]])).toBe(0n);
    const acc = [11n, 0n, 13n];
    expect(accumulateCheckpointOutHashes(acc)).toBe(stdAccumulate(acc.map(fr)).toBigInt());
  });

  it('blockHeadersHash over 1 to 5 headers', async () => {
    const headers = await Promise.all([1, 2, 3, 4, 5].map((n) => StdL2Block.random(n as never).then((b) => b.header)));
    for (let n = 1; n <= 5; n++) {
      const ours = headers.slice(0, n).map((h) => L2Block.fromBuffer(StdL2Block.empty(h).toBuffer()).header);
      expect(computeBlockHeadersHash(ours)).toBe((await stdBlockHeadersHash(headers.slice(0, n))).toBigInt());
    }
  });
});

describe('computeTransactionFee', () => {
  it('charges the block fees plus the capped priority fee', () => {
    const cases = [
      { block: [0n, 10n], max: [0n, 20n], prio: [0n, 0n], used: [100, 1000] },
      { block: [2n, 10n], max: [5n, 20n], prio: [7n, 4n], used: [96, 440000] },
    ];
    for (const c of cases) {
      const settings = GasSettings.default(new GasFees(c.max[0] as bigint, c.max[1] as bigint));
      const ours = computeTransactionFee(
        new GasFees(c.block[0] as bigint, c.block[1] as bigint),
        new GasSettings(
          settings.gasLimits,
          settings.teardownGasLimits,
          settings.maxFeesPerGas,
          new GasFees(c.prio[0] as bigint, c.prio[1] as bigint),
        ),
        new Gas(c.used[0] as number, c.used[1] as number),
      );
      const std = stdFee(
        new StdGasFees(c.block[0] as bigint, c.block[1] as bigint),
        StdGasSettings.from({
          gasLimits: StdGas.from({ daGas: settings.gasLimits.daGas, l2Gas: settings.gasLimits.l2Gas }),
          teardownGasLimits: StdGas.from({
            daGas: settings.teardownGasLimits.daGas,
            l2Gas: settings.teardownGasLimits.l2Gas,
          }),
          maxFeesPerGas: new StdGasFees(c.max[0] as bigint, c.max[1] as bigint),
          maxPriorityFeesPerGas: new StdGasFees(c.prio[0] as bigint, c.prio[1] as bigint),
        }),
        StdGas.from({ daGas: c.used[0] as number, l2Gas: c.used[1] as number }),
      );
      expect(ours.value).toBe(std.toBigInt());
    }
  });

  it('refuses a tx whose max fees are below the block fees', () => {
    expect(() =>
      computeTransactionFee(new GasFees(0n, 10n), GasSettings.default(new GasFees(0n, 9n)), new Gas(1, 1)),
    ).toThrow(/below the block's fees/);
  });
});
