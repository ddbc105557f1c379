import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { ContractInstanceUpdatedEvent as StdUpdatedEvent } from '@aztec/protocol-contracts/instance-registry';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { PublicLog as StdPublicLog } from '@aztec/stdlib/logs';
import { beforeEach, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { AppendOnlyTreeSnapshot } from '../../../../src/core/block/append-only-tree-snapshot.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { Body } from '../../../../src/core/block/body.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { L2Block } from '../../../../src/core/block/l2-block.js';
import {
  CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE,
  ContractInstanceUpdatedEvent,
} from '../../../../src/core/contract/contract-instance-updated-event.js';
import { ContractInstanceWithAddress } from '../../../../src/core/contract/contract-instance-with-address.js';
import { PROTOCOL_CONTRACTS } from '../../../../src/core/contract/protocol-contracts.js';
import { PublicKeys } from '../../../../src/core/contract/public-keys.js';
import { Fr } from '../../../../src/core/fr.js';
import { PublicLog } from '../../../../src/core/logs/public-log.js';
import { RevertCode } from '../../../../src/core/tx/revert-code.js';
import { TxEffect } from '../../../../src/core/tx/tx-effect.js';
import { TxHash } from '../../../../src/core/tx-hash.js';
import { ChainStore } from '../../../../src/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

/**
 * Contract upgrades: the instance registry's ContractInstanceUpdated public logs are indexed when a block is
 * written, and an instance's class at a timestamp follows 4.1.2's archiver rule.
 */
const REGISTRY = new AztecAddress(2n);
const TARGET = 0xabcdefn;
const ORIGINAL = 0x111n;
const f = (v: bigint) => new Fr(v);

let store: ChainStore;
let nextTx = 1n;

beforeEach(() => {
  store = new ChainStore(openNodeDatabase(null));
  nextTx = 1n;
  const instance = new ContractInstanceWithAddress(
    f(1n),
    new AztecAddress(0n),
    f(ORIGINAL),
    f(ORIGINAL),
    f(0n),
    PublicKeys.default(),
    new AztecAddress(TARGET),
  );
  store.contractInstances.insert(instance, 0);
});

const updateLog = (prev: bigint, next: bigint, timestampOfChange: bigint, from = REGISTRY) =>
  new PublicLog(from, [CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE, TARGET, prev, next, timestampOfChange].map(f));

function writeBlock(n: number, timestamp: bigint, logs: PublicLog[][]): void {
  const effects = logs.map((publicLogs) => {
    const h = nextTx++;
    return new TxEffect(RevertCode.OK, new TxHash(h), f(1n), [], [f(h * 7n)], [], [], [], publicLogs, []);
  });
  const header = BlockHeader.empty({
    globalVariables: GlobalVariables.empty({ blockNumber: n, timestamp }),
    lastArchive: new AppendOnlyTreeSnapshot(f(BigInt(n)), n),
  });
  const block = new L2Block(new AppendOnlyTreeSnapshot(f(BigInt(10_000 + n)), n + 1), header, new Body(effects), n, 0);
  store.writeBlock({ block, l1ToL2Messages: [], l1ToL2MessageStartIndex: 0 });
}

const classAt = (timestamp: bigint) => store.getContractInstanceAt(TARGET, timestamp)?.currentContractClassId.value;

describe('ContractInstanceUpdatedEvent', () => {
  it('reads the same fields as 4.1.2 from a registry log, and only from the registry', async () => {
    await initAztecOracle();
    const fields = [CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE, TARGET, 0x22n, 0x33n, 5000n];
    const std = StdUpdatedEvent.fromLog(
      new StdPublicLog(
        StdAztecAddress.fromBigInt(2n),
        fields.map((v) => new StdFr(v)),
      ),
    );
    const log = new PublicLog(REGISTRY, fields.map(f));
    expect(ContractInstanceUpdatedEvent.isContractInstanceUpdatedEvent(log)).toBe(true);
    const ours = ContractInstanceUpdatedEvent.fromLog(log);
    expect(ours.address.value).toBe(std.address.toBigInt());
    expect(ours.prevContractClassId).toBe(std.prevContractClassId.toBigInt());
    expect(ours.newContractClassId).toBe(std.newContractClassId.toBigInt());
    expect(ours.timestampOfChange).toBe(std.timestampOfChange);
    expect(
      ContractInstanceUpdatedEvent.isContractInstanceUpdatedEvent(new PublicLog(new AztecAddress(3n), fields.map(f))),
    ).toBe(false);
  });
});

describe('current class of an instance', () => {
  it('is the original class without updates', () => {
    expect(classAt(1_000n)).toBe(ORIGINAL);
  });

  it('switches at the timestamp of change; before it the previous class (0 = original) holds', () => {
    writeBlock(1, 1_000n, [[updateLog(0n, 0x222n, 1_600n)]]);
    expect(classAt(999n)).toBe(ORIGINAL); // the update was not published yet
    expect(classAt(1_000n)).toBe(ORIGINAL); // published, not in force; previous 0 means the original
    expect(classAt(1_599n)).toBe(ORIGINAL);
    expect(classAt(1_600n)).toBe(0x222n);
    writeBlock(2, 2_000n, [[updateLog(0x222n, 0x333n, 2_600n)]]);
    expect(classAt(2_100n)).toBe(0x222n);
    expect(classAt(2_600n)).toBe(0x333n);
    // Looking back before block 2: block 1's update decides.
    expect(classAt(1_700n)).toBe(0x222n);
  });

  it('takes the last update of a block (tx order, then log order), ignores other contracts and malformed logs', () => {
    writeBlock(1, 1_000n, [
      [updateLog(0n, 0x222n, 1_600n), updateLog(0x222n, 0x333n, 1_600n)],
      [
        updateLog(0n, 0x999n, 1_600n, new AztecAddress(7n)),
        new PublicLog(REGISTRY, [f(CONTRACT_INSTANCE_UPDATED_MAGIC_VALUE)]),
      ],
    ]);
    expect(classAt(1_600n)).toBe(0x333n);
  });

  it('forgets updates of unwound blocks', () => {
    writeBlock(1, 1_000n, [[]]);
    writeBlock(2, 2_000n, [[updateLog(0n, 0x222n, 2_600n)]]);
    expect(classAt(3_000n)).toBe(0x222n);
    store.removeBlocksAbove(1);
    expect(classAt(3_000n)).toBe(ORIGINAL);
  });

  it('serves the protocol contracts from genesis, classes included', () => {
    for (const c of PROTOCOL_CONTRACTS) {
      expect(store.getContractInstanceAt(c.address, 0n)).toBe(c.instance);
      expect(store.getContractClass(c.contractClass.id.value)).toBe(c.contractClass);
    }
    expect(store.getContractInstanceAt(7n, 0n)).toBeUndefined();
  });
});
