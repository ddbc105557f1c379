import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { computeContractAddressFromInstance as stdComputeAddress } from '@aztec/stdlib/contract';
import { computeCalldataHash } from '@aztec/stdlib/hash';
import { PrivateLog as StdPrivateLog } from '@aztec/stdlib/logs';
import { makeContractInstanceFromClassId } from '@aztec/stdlib/testing';
import { Tx as StdTx } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { BlockHeader } from '../../../../src/core/block/block-header.js';
import { GlobalVariables } from '../../../../src/core/block/global-variables.js';
import { ContractClassPublishedEvent } from '../../../../src/core/contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../../../../src/core/contract/contract-instance-published-event.js';
import { ContractInstanceWithAddress } from '../../../../src/core/contract/contract-instance-with-address.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { Fr } from '../../../../src/core/fr.js';
import { GasFees } from '../../../../src/core/gas/gas-fees.js';
import { computeProtocolNullifier, siloNullifier } from '../../../../src/core/hash/siloing.js';
import { PrivateLog } from '../../../../src/core/logs/private-log.js';
import { TxBuilder } from '../../../../src/core/tx/tx-builder.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

const anchor = BlockHeader.empty({
  globalVariables: GlobalVariables.empty({
    blockNumber: 4,
    timestamp: 1_800_000_000n,
    gasFees: new GasFees(0n, 1000n),
  }),
});
const builder = new TxBuilder({
  chainId: 31337n,
  rollupVersion: 1234n,
  vkTreeRoot: new Fr(77n),
  protocolContractsHash: new Fr(88n),
  anchorBlockHeader: anchor,
});
const feePayer = new AztecAddress(0xfeen);

/** stdlib parses our JSON and recomputes the same tx hash (its schema ignores the hash we send). */
async function stdlibAgrees(json: unknown): Promise<StdTx> {
  const std = await StdTx.schema.parseAsync(json);
  expect(std.getTxHash().toString()).toBe((json as { txHash: string }).txHash);
  return std;
}

describe('TxBuilder', () => {
  it('builds a valid default rollup-only tx for the chain', async () => {
    const tx = builder.build({ feePayer, txRequestHash: new Fr(1n) });
    expect(tx.hasPublicCalls()).toBe(false);
    expect(tx.getDataBuffer().length).toBe(38_557);
    const c = tx.data.constants;
    expect(c.txContext.chainId.value).toBe(31337n);
    expect(c.txContext.version.value).toBe(1234n);
    expect(c.vkTreeRoot.value).toBe(77n);
    expect(c.protocolContractsHash.value).toBe(88n);
    expect(c.anchorBlockHeader.hash().equals(anchor.hash())).toBe(true);
    expect(tx.data.getNonEmptyNullifiers().map((n) => n.value)).toEqual([computeProtocolNullifier(1n)]);
    expect(tx.data.expirationTimestamp).toBe(1_800_000_000n + 86_400n);
    expect(tx.gasSettings.gasLimits.l2Gas).toBe(6_540_000);
    expect(tx.gasSettings.maxFeesPerGas.feePerL2Gas).toBe(2000n);
    expect(tx.data.gasUsed.l2Gas).toBe(440_000 + 16_000);
    expect(tx.chonkProof.isEmpty()).toBe(true);
    const std = await stdlibAgrees(JSON.parse(JSON.stringify(tx)));
    expect(std.data.feePayer.toString()).toBe(feePayer.toString());
  });

  it('gives each default tx a different first nullifier', () => {
    const a = builder.build({ feePayer });
    const b = builder.build({ feePayer });
    expect(a.data.getNonEmptyNullifiers()[0]?.value).not.toBe(b.data.getNonEmptyNullifiers()[0]?.value);
    expect(a.txHash.equals(b.txHash)).toBe(false);
  });

  it('carries chosen side effects, gas and expiration', async () => {
    const log = PrivateLog.fromEmitted([new Fr(9n), new Fr(10n), new Fr(11n)]);
    const tx = builder.build({
      feePayer,
      noteHashes: [new Fr(1n), new Fr(2n)],
      nullifiers: [new Fr(3n)],
      privateLogs: [log],
      l2ToL1Messages: [{ recipient: EthAddress.fromBigInt(0xabcn), content: new Fr(5n), sender: new AztecAddress(6n) }],
      maxFeesPerGas: new GasFees(1n, 5000n),
      maxPriorityFeesPerGas: new GasFees(0n, 7n),
      expirationTimestamp: 1_800_000_100n,
    });
    expect(tx.data.getNonEmptyNoteHashes().map((x) => x.value)).toEqual([1n, 2n]);
    expect(tx.data.getNonEmptyNullifiers()).toHaveLength(2);
    expect(tx.data.getNonEmptyPrivateLogs()[0]?.equals(log)).toBe(true);
    expect(tx.data.getNonEmptyL2ToL1Msgs()[0]?.recipient.toBigInt()).toBe(0xabcn);
    expect(tx.gasSettings.maxPriorityFeesPerGas.feePerL2Gas).toBe(7n);
    expect(tx.gasSettings.getFeeLimit()).toBe(786_432n * 1n + 6_540_000n * 5000n);
    expect(tx.data.expirationTimestamp).toBe(1_800_000_100n);
    const std = await stdlibAgrees(JSON.parse(JSON.stringify(tx)));
    expect(std.data.getNonEmptyPrivateLogs()[0]?.equals(StdPrivateLog.fromBuffer(log.toBuffer()))).toBe(true);
  });

  it('publishes a contract class and an instance the way the registries do', async () => {
    const stdInstance = await makeContractInstanceFromClassId(new StdFr(42n), 8);
    const instance = ContractInstanceWithAddress.fromJSON(JSON.parse(jsonStringify(stdInstance)));
    const packedBytecode = Buffer.from(Array.from({ length: 700 }, (_, i) => i & 0xff));
    const tx = builder.build({
      feePayer,
      publishContractClass: { artifactHash: new Fr(1n), privateFunctionsRoot: new Fr(2n), packedBytecode },
      publishContractInstances: [
        {
          salt: instance.salt,
          contractClassId: instance.originalContractClassId,
          initializationHash: instance.initializationHash,
          publicKeys: instance.publicKeys,
          deployer: instance.deployer,
        },
      ],
    });
    // the class: a log from the registry, committed by hash, and the registry's nullifier
    const [classLog] = tx.getContractClassLogs();
    expect(classLog).toBeDefined();
    const classEvent = ContractClassPublishedEvent.fromLog(classLog!);
    const cls = classEvent.toContractClassPublic();
    expect(cls.packedBytecode.equals(packedBytecode)).toBe(true);
    const nullifiers = tx.data.getNonEmptyNullifiers().map((n) => n.value);
    expect(nullifiers).toContain(siloNullifier(3n, cls.id.value));
    // the instance: a private log whose address stdlib derives the same way
    const events = ContractInstancePublishedEvent.extractContractInstanceEvents(tx.data.getNonEmptyPrivateLogs());
    expect(events).toHaveLength(1);
    expect(events[0]!.address.toString()).toBe((await stdComputeAddress(stdInstance)).toString());
    expect(nullifiers).toContain(siloNullifier(2n, events[0]!.address.value));

    // stdlib sees the same log hash commitment (its DataTxValidator check) and the same tx hash
    const std = await stdlibAgrees(JSON.parse(JSON.stringify(tx)));
    const [stdHash] = std.data.getNonEmptyContractClassLogsHashes();
    expect((await std.contractClassLogFields[0]!.hash()).equals(stdHash!.logHash.value)).toBe(true);
    expect(stdHash!.logHash.length).toBeGreaterThanOrEqual(
      1 + std.contractClassLogFields[0]!.fields.findLastIndex((f) => !f.isZero()),
    );
  });

  it('enqueues public calls by phase, each committing to its calldata', async () => {
    const call = (n: bigint) => ({
      contractAddress: new AztecAddress(0xc0n + n),
      msgSender: new AztecAddress(0x5en + n),
      calldata: [new Fr(0x1234n), new Fr(n)],
    });
    const tx = builder.build({
      feePayer,
      txRequestHash: new Fr(3n),
      noteHashes: [new Fr(9n)],
      publicCalls: { setup: [call(1n)], appLogic: [call(2n), call(3n)], teardown: call(4n) },
    });
    expect(tx.hasPublicCalls()).toBe(true);
    // Public tx overhead, one note hash (9,200) and one nullifier (16,000), plus the teardown limits the kernel adds.
    expect(tx.data.gasUsed.l2Gas).toBe(540_000 + 9_200 + 16_000 + 1_000_000);
    const std = await stdlibAgrees(JSON.parse(JSON.stringify(tx)));
    const forPublic = std.data.forPublic;
    expect(forPublic?.nonRevertibleAccumulatedData.noteHashes[0]?.toBigInt()).toBe(9n);
    expect(forPublic?.revertibleAccumulatedData.nullifiers[0]?.isZero()).toBe(true);
    const requests = std.getPublicCallRequestsWithCalldata();
    expect(requests.map((r) => [r.request.contractAddress.toBigInt(), r.request.msgSender.toBigInt()])).toEqual([
      [0xc1n, 0x5fn],
      [0xc2n, 0x60n],
      [0xc3n, 0x61n],
      [0xc4n, 0x62n],
    ]);
    for (const r of requests) expect(r.request.calldataHash.equals(await computeCalldataHash(r.calldata))).toBe(true);
    expect(() => builder.build({ feePayer, publicCalls: {} })).toThrow(/at least one call/);
  });

  it('honours invalid choices so validators can be tested', () => {
    const tx = builder.build({ feePayer, firstNullifier: null, nullifiers: [new Fr(5n), new Fr(5n)] });
    expect(tx.data.getNonEmptyNullifiers().map((n) => n.value)).toEqual([5n, 5n]);
    expect(() =>
      builder.build({ feePayer, nullifiers: Array.from({ length: 64 }, (_, i) => new Fr(BigInt(i + 1))) }),
    ).toThrow(/nullifiers: at most 64/);
  });
});
