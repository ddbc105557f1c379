import { jsonStringify } from '@aztec/foundation/json-rpc';
import { ContractClassLogFields as StdClassLogFields } from '@aztec/stdlib/logs';
import { ChonkProof as StdChonkProof } from '@aztec/stdlib/proofs';
import { makePrivateKernelTailCircuitPublicInputs, mockTx, mockTxForRollup } from '@aztec/stdlib/testing';
import { Tx as StdTx } from '@aztec/stdlib/tx';
import { beforeAll, describe, expect, it } from 'vitest';
import { PrivateKernelTailCircuitPublicInputs } from '../../../../src/core/kernel/private-kernel-tail-circuit-public-inputs.js';
import { Tx } from '../../../../src/core/tx/tx.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

/** Parses stdlib's JSON with our codec and checks everything the wire and the pool depend on. */
async function checkAgainstStdlib(std: StdTx): Promise<Tx> {
  const json = jsonStringify(std);
  const ours = Tx.fromJSON(JSON.parse(json));

  // The data through our serialiser (not the cached input bytes) is byte-identical.
  const stdData = std.data.toBuffer();
  const reparsed = PrivateKernelTailCircuitPublicInputs.fromBuffer(stdData);
  expect(reparsed.toBuffer().equals(stdData)).toBe(true);
  expect(ours.data.toBuffer().equals(stdData)).toBe(true);
  expect(ours.chonkProof.toBuffer().equals(std.chonkProof.toBuffer())).toBe(true);

  // Same hash as stdlib, over the same fields.
  const stdHash = (await StdTx.computeTxHash(std)).toString();
  expect(std.getTxHash().toString()).toBe(stdHash);
  expect(ours.txHash.toString()).toBe(stdHash);
  expect(reparsed.toHashFields()).toEqual(
    std.data
      .publicInputs()
      .toFields()
      .map((f) => f.toBigInt()),
  );

  // JSON and the binary (p2p/storage) form re-serialise identically.
  expect(JSON.stringify(ours)).toBe(json);
  const stdBin = std.toBuffer();
  expect(ours.toBuffer().equals(stdBin)).toBe(true);
  expect(ours.getSize()).toBe(std.getSize());
  const fromBin = Tx.fromBuffer(stdBin);
  expect(fromBin.txHash.toString()).toBe(stdHash);
  expect(fromBin.computeTxHash().toString()).toBe(stdHash);
  return ours;
}

describe('Tx codec against @aztec/stdlib@4.1.2', () => {
  it('handles mockTx rollup-only transactions', async () => {
    for (const seed of [1, 2, 77]) {
      const std = await mockTxForRollup(seed);
      expect(std.data.toBuffer().length).toBe(38_557);
      const ours = await checkAgainstStdlib(std);
      expect(ours.data.isForPublic).toBe(false);
      expect(ours.hasPublicCalls()).toBe(false);
      expect(ours.data.getNonEmptyNullifiers()).toHaveLength(1);
    }
  });

  it('handles mockTx transactions with public calls (setup, app logic, teardown)', async () => {
    const samples = [
      await mockTx(1),
      await mockTx(5, { hasPublicTeardownCallRequest: true, numberOfRevertibleNullifiers: 3, publicCalldataSize: 7 }),
      await mockTx(9, { numberOfNonRevertiblePublicCallRequests: 0, numberOfRevertiblePublicCallRequests: 1 }),
    ];
    for (const std of samples) {
      expect(std.data.toBuffer().length).toBe(82_722);
      const ours = await checkAgainstStdlib(std);
      expect(ours.hasPublicCalls()).toBe(true);
      expect(ours.data.numberOfPublicCallRequests()).toBe(std.data.numberOfPublicCallRequests());
      expect(ours.publicFunctionCalldata.length).toBe(std.publicFunctionCalldata.length);
    }
  });

  it('handles fully populated kernel outputs (every array full) in both variants', async () => {
    for (const isForPublic of [false, true]) {
      const data = makePrivateKernelTailCircuitPublicInputs(11, isForPublic);
      const std = await StdTx.create({
        data,
        chonkProof: StdChonkProof.random(),
        contractClassLogFields: [StdClassLogFields.random(100)],
        publicFunctionCalldata: [],
      });
      const ours = await checkAgainstStdlib(std);
      expect(ours.data.getNonEmptyPrivateLogs().length).toBe(isForPublic ? 128 : 64);
      expect(ours.getContractClassLogs()).toHaveLength(1);
    }
  });

  it('ignores the txHash the sender claims in JSON and recomputes it', async () => {
    const std = await mockTxForRollup(3);
    const json = JSON.parse(jsonStringify(std));
    json.txHash = `0x${'11'.repeat(32)}`;
    json._stray = 1;
    expect(Tx.fromJSON(json).txHash.toString()).toBe(std.getTxHash().toString());
  });

  it('names the field when the data is malformed', async () => {
    const std = await mockTxForRollup(4);
    const json = JSON.parse(jsonStringify(std));
    const bytes = Buffer.from(json.data, 'base64');
    expect(() => Tx.fromJSON({ ...json, data: bytes.subarray(0, 1000).toString('base64') })).toThrow(
      /^tx\.data\.forRollup\.end\.noteHashes\[\d+\]: needs 32 bytes/,
    );
    const badBool = Buffer.from(bytes);
    badBool[0] = 2;
    expect(() => Tx.fromJSON({ ...json, data: badBool.toString('base64') })).toThrow(
      /^tx\.data\.isForPublic: a boolean byte must be 0 or 1/,
    );
    expect(() => Tx.fromJSON({ ...json, data: Buffer.concat([bytes, Buffer.alloc(1)]).toString('base64') })).toThrow(
      /^tx\.data: 1 unexpected trailing bytes/,
    );
    const badProof = Buffer.from(json.chonkProof, 'base64');
    badProof.fill(0xff, 4 + 32 * 5, 4 + 32 * 6);
    expect(() => Tx.fromJSON({ ...json, chonkProof: badProof.toString('base64') })).toThrow(
      /^tx\.chonkProof\[5\]: value is not below/,
    );
    expect(() => Tx.fromJSON({ ...json, data: '***' })).toThrow(/^tx\.data: not a valid base64/);
    expect(() => Tx.fromJSON({ ...json, contractClassLogFields: [{ fields: [] }] })).toThrow(
      /^tx\.contractClassLogFields\[0\]\.fields: a contract class log has exactly 3023 fields/,
    );
  });
});
