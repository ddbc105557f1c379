import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { FunctionSelector as StdFunctionSelector, bufferAsFields as stdBufferAsFields } from '@aztec/stdlib/abi';
import {
  ContractClassPublicSchema,
  ContractInstanceWithAddressSchema,
  SerializableContractInstance,
  computePublicBytecodeCommitment as stdBytecodeCommitment,
  computeContractAddressFromInstance as stdComputeAddress,
  computeContractClassId as stdComputeClassId,
  computePrivateFunctionsRoot as stdPrivateFunctionsRoot,
} from '@aztec/stdlib/contract';
import { PublicKeys as StdPublicKeys } from '@aztec/stdlib/keys';
import { makeContractClassPublic, makeContractInstanceFromClassId } from '@aztec/stdlib/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { computeContractAddressFromInstance } from '../../../../src/core/contract/contract-address.js';
import {
  bufferAsFields,
  bufferFromFields,
  computeContractClassId,
  computePrivateFunctionsRoot,
  computePublicBytecodeCommitment,
} from '../../../../src/core/contract/contract-class-id.js';
import { ContractClassPublic } from '../../../../src/core/contract/contract-class-public.js';
import { ContractClassPublishedEvent } from '../../../../src/core/contract/contract-class-published-event.js';
import { ContractInstancePublishedEvent } from '../../../../src/core/contract/contract-instance-published-event.js';
import { ContractInstanceWithAddress } from '../../../../src/core/contract/contract-instance-with-address.js';
import { PublicKeys } from '../../../../src/core/contract/public-keys.js';
import { Fr } from '../../../../src/core/fr.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

function bytes(n: number, seed: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));
}

describe('contract addresses', () => {
  it('derive the same address as stdlib for random instances and keys', async () => {
    for (let i = 0; i < 4; i++) {
      const std = await SerializableContractInstance.random();
      const json = JSON.parse(jsonStringify({ ...std, address: await stdComputeAddress(std) }));
      const ours = ContractInstanceWithAddress.fromJSON(json);
      expect(computeContractAddressFromInstance(ours).toString()).toBe(json.address);
      expect(ours.hasCorrectAddress()).toBe(true);
      expect(JSON.stringify(ours)).toBe(JSON.stringify(json));
      expect(ContractInstanceWithAddressSchema.parse(JSON.parse(JSON.stringify(ours))).address.toString()).toBe(
        json.address,
      );
    }
  });

  it('hash the default keys like stdlib', async () => {
    expect(PublicKeys.default().hash()).toBe((await StdPublicKeys.default().hash()).toBigInt());
    expect(JSON.stringify(PublicKeys.default())).toBe(jsonStringify(StdPublicKeys.default()));
  });
});

describe('contract class ids', () => {
  it('pack bytecode into fields and back like stdlib', () => {
    for (const n of [0, 1, 30, 31, 32, 100, 1000]) {
      const b = bytes(n, n);
      const ours = bufferAsFields(b);
      const std = stdBufferAsFields(b, 3000)
        .slice(0, ours.length)
        .map((f) => f.toBigInt());
      expect(ours).toEqual(std);
      expect(bufferFromFields([...ours, 0n, 0n]).equals(b)).toBe(true);
    }
  });

  it('compute bytecode commitments, private function roots and class ids like stdlib', async () => {
    for (const n of [0, 45, 3100]) {
      const b = bytes(n, 7);
      expect(computePublicBytecodeCommitment(b)).toBe((await stdBytecodeCommitment(b)).toBigInt());
    }
    const fns = [
      { selector: 0x12345678, vkHash: 5n },
      { selector: 0x00000001, vkHash: 9n },
      { selector: 0xdeadbeef, vkHash: 77n },
    ];
    const stdFns = fns.map((f) => ({ selector: new StdFunctionSelector(f.selector), vkHash: new StdFr(f.vkHash) }));
    expect(computePrivateFunctionsRoot(fns)).toBe((await stdPrivateFunctionsRoot(stdFns)).toBigInt());
    expect(computePrivateFunctionsRoot([])).toBe((await stdPrivateFunctionsRoot([])).toBigInt());

    const packedBytecode = bytes(500, 3);
    const stdId = await stdComputeClassId({
      version: 1,
      artifactHash: new StdFr(11n),
      privateFunctions: stdFns,
      packedBytecode,
    });
    const ourId = computeContractClassId(
      11n,
      computePrivateFunctionsRoot(fns),
      computePublicBytecodeCommitment(packedBytecode),
    );
    expect(ourId).toBe(stdId.toBigInt());
  });

  it("reads and writes stdlib's ContractClassPublic JSON", async () => {
    const std = await makeContractClassPublic(5);
    const json = jsonStringify(std);
    const ours = ContractClassPublic.fromJSON(JSON.parse(json));
    expect(ours.id.toString()).toBe(std.id.toString());
    const back = ContractClassPublicSchema.parse(JSON.parse(JSON.stringify(ours)));
    expect(back.packedBytecode.equals(std.packedBytecode)).toBe(true);
    expect(back.id.equals(std.id)).toBe(true);
  });
});

describe('publication events', () => {
  it('turn a published class into a registry log and back, with a checked class id', async () => {
    const std = await makeContractClassPublic(9, bytes(2000, 1));
    const event = ContractClassPublishedEvent.create(
      Fr.fromString(std.artifactHash.toString()),
      Fr.fromString(std.privateFunctionsRoot.toString()),
      std.packedBytecode,
    );
    expect(event.contractClassId.toString()).toBe(std.id.toString());
    const log = event.toLog();
    expect(log.contractAddress.value).toBe(3n);
    expect(log.emittedLength).toBe(5 + 1 + Math.ceil(2000 / 31));
    expect(ContractClassPublishedEvent.isContractClassPublishedEvent(log)).toBe(true);
    const parsed = ContractClassPublishedEvent.fromLog(log).toContractClassPublic();
    expect(parsed.packedBytecode.equals(std.packedBytecode)).toBe(true);
    expect(parsed.id.toString()).toBe(std.id.toString());

    const forged = new ContractClassPublishedEvent(
      new Fr(1n),
      1,
      event.artifactHash,
      event.privateFunctionsRoot,
      std.packedBytecode,
    );
    expect(() => ContractClassPublishedEvent.fromLog(forged.toLog()).toContractClassPublic()).toThrow(
      /Invalid contract class id/,
    );
  });

  it('turn a deployed instance into a registry log and back', async () => {
    const std = await makeContractInstanceFromClassId(new StdFr(1234n), 3);
    const instance = ContractInstanceWithAddress.fromJSON(JSON.parse(jsonStringify(std)));
    expect(instance.hasCorrectAddress()).toBe(true);
    const event = new ContractInstancePublishedEvent(
      instance.address,
      1,
      instance.salt,
      instance.originalContractClassId,
      instance.initializationHash,
      instance.publicKeys,
      instance.deployer,
    );
    const log = event.toLog();
    expect(log.emittedLength).toBe(15);
    expect(ContractInstancePublishedEvent.isContractInstancePublishedEvent(log)).toBe(true);
    const back = ContractInstancePublishedEvent.fromLog(log).toContractInstance();
    expect(JSON.stringify(back)).toBe(JSON.stringify(instance));
    expect(back.hasCorrectAddress()).toBe(true);
    const wrong = new ContractInstancePublishedEvent(
      new AztecAddress(5n),
      1,
      instance.salt,
      instance.originalContractClassId,
      instance.initializationHash,
      instance.publicKeys,
      instance.deployer,
    );
    expect(ContractInstancePublishedEvent.fromLog(wrong.toLog()).toContractInstance().hasCorrectAddress()).toBe(false);
  });
});
