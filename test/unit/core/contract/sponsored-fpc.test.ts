import { SPONSORED_FPC_SALT } from '@aztec/constants';
import { Fr } from '@aztec/foundation/curves/bn254';
import { SponsoredFPCContract } from '@aztec/noir-contracts.js/SponsoredFPC';
import { decodeFunctionSignature, FunctionType } from '@aztec/stdlib/abi';
import { getContractClassFromArtifact, getContractInstanceFromInstantiationParams } from '@aztec/stdlib/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  computeContractClassId,
  computePublicBytecodeCommitment,
} from '../../../../src/core/contract/contract-class-id.js';
import { SPONSORED_FPC } from '../../../../src/core/contract/sponsored-fpc.js';
import { SPONSORED_FPC_DATA } from '../../../../src/core/contract/sponsored-fpc-generated.js';
import { initAztecOracle } from '../../../helpers/aztec-oracle.js';

beforeAll(initAztecOracle);

describe('the canonical SponsoredFPC (generated from @aztec/noir-contracts.js@4.1.2)', () => {
  it('is the instance 4.1.2 computes from the artifact and SPONSORED_FPC_SALT, with the same class', async () => {
    const artifact = SponsoredFPCContract.artifact;
    const instance = await getContractInstanceFromInstantiationParams(artifact, { salt: new Fr(SPONSORED_FPC_SALT) });
    expect(SPONSORED_FPC.instance.toJSON()).toEqual(JSON.parse(JSON.stringify(instance)));
    expect(SPONSORED_FPC.address.toString()).toBe(instance.address.toString());
    const cls = await getContractClassFromArtifact(artifact);
    const ours = SPONSORED_FPC.contractClass;
    expect(ours.id.toString()).toBe(cls.id.toString());
    expect(ours.artifactHash.toString()).toBe(cls.artifactHash.toString());
    expect(ours.privateFunctionsRoot.toString()).toBe(cls.privateFunctionsRoot.toString());
    expect(ours.packedBytecode.equals(Buffer.from(cls.packedBytecode))).toBe(true);
    expect(SPONSORED_FPC_DATA.publicBytecodeCommitment).toBe(cls.publicBytecodeCommitment.toString());
    expect(SPONSORED_FPC_DATA.publicFunctionSignatures).toEqual(
      artifact.functions
        .filter((f) => f.functionType === FunctionType.PUBLIC)
        .map((f) => decodeFunctionSignature(f.name, f.parameters)),
    );
  });

  it('is self-consistent: the class id follows from its preimage, the address from the instance', () => {
    const c = SPONSORED_FPC.contractClass;
    const commitment = computePublicBytecodeCommitment(c.packedBytecode);
    expect(`0x${commitment.toString(16).padStart(64, '0')}`).toBe(SPONSORED_FPC_DATA.publicBytecodeCommitment);
    expect(computeContractClassId(c.artifactHash.value, c.privateFunctionsRoot.value, commitment)).toBe(c.id.value);
    expect(SPONSORED_FPC.instance.hasCorrectAddress()).toBe(true);
  });
});
