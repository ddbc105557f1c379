import { protocolContractNames } from '@aztec/protocol-contracts';
import { BundledProtocolContractsProvider } from '@aztec/protocol-contracts/providers/bundle';
import { decodeFunctionSignature, FunctionType } from '@aztec/stdlib/abi';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  computeContractClassId,
  computePublicBytecodeCommitment,
} from '../../../../src/core/contract/contract-class-id.js';
import {
  getProtocolContractClass,
  getProtocolContractInstance,
  PROTOCOL_CONTRACTS,
} from '../../../../src/core/contract/protocol-contracts.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

describe('protocol contracts (generated from @aztec/protocol-contracts@4.1.2)', () => {
  it('hold the same six contracts as the package: names, addresses, class ids, preimages, bytecode, instances', async () => {
    const provider = new BundledProtocolContractsProvider();
    expect(PROTOCOL_CONTRACTS.map((c) => c.name)).toEqual([...protocolContractNames]);
    for (const ours of PROTOCOL_CONTRACTS) {
      const theirs = await provider.getProtocolContractArtifact(ours.name as (typeof protocolContractNames)[number]);
      expect(ours.address).toBe(theirs.address.toBigInt());
      const cls = ours.contractClass;
      expect(cls.id.toString()).toBe(theirs.contractClass.id.toString());
      expect(cls.artifactHash.toString()).toBe(theirs.contractClass.artifactHash.toString());
      expect(cls.privateFunctionsRoot.toString()).toBe(theirs.contractClass.privateFunctionsRoot.toString());
      expect(ours.publicBytecodeCommitment).toBe(theirs.contractClass.publicBytecodeCommitment.toBigInt());
      expect(cls.packedBytecode.equals(Buffer.from(theirs.contractClass.packedBytecode))).toBe(true);
      expect(ours.publicFunctionSignatures).toEqual(
        theirs.artifact.functions
          .filter((f) => f.functionType === FunctionType.PUBLIC)
          .map((f) => decodeFunctionSignature(f.name, f.parameters)),
      );
      expect(ours.instance.toJSON()).toEqual(JSON.parse(JSON.stringify(theirs.instance)));
    }
  });

  it('are self-consistent: the bytecode commits to the preimage and the preimage hashes to the class id', () => {
    for (const c of PROTOCOL_CONTRACTS) {
      const commitment = computePublicBytecodeCommitment(c.contractClass.packedBytecode);
      expect(commitment).toBe(c.publicBytecodeCommitment);
      expect(
        computeContractClassId(
          c.contractClass.artifactHash.value,
          c.contractClass.privateFunctionsRoot.value,
          commitment,
        ),
      ).toBe(c.contractClass.id.value);
    }
  });

  it('answer lookups by address (1..6 only) and by class id', () => {
    for (const c of PROTOCOL_CONTRACTS) {
      expect(getProtocolContractInstance(c.address)).toBe(c.instance);
      expect(getProtocolContractClass(c.contractClass.id.value)).toBe(c.contractClass);
    }
    expect(getProtocolContractInstance(0n)).toBeUndefined();
    expect(getProtocolContractInstance(7n)).toBeUndefined();
    expect(getProtocolContractClass(1n)).toBeUndefined();
  });
});
