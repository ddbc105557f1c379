/**
 * How a contract instance's address follows from its contents (4.1.2 contract/contract_address.ts and
 * keys/derivation.ts):
 *
 *   saltedInitializationHash = H_sep(PARTIAL_ADDRESS; salt, initializationHash, deployer)
 *   partialAddress           = H_sep(PARTIAL_ADDRESS; originalContractClassId, saltedInitializationHash)
 *   preaddress               = H_sep(CONTRACT_ADDRESS_V1; publicKeysHash, partialAddress)
 *   address                  = (preaddress * G + ivpk_m).x   on Grumpkin
 */
import { AztecAddress } from '../aztec-address.js';
import { DomainSeparator } from '../constants.js';
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.js';
import type { Fr } from '../fr.js';
import { GRUMPKIN_GENERATOR, grumpkinAdd, grumpkinMul, isOnGrumpkin } from './grumpkin.js';
import type { PublicKeys } from './public-keys.js';

/** The parts of an instance its address commits to. */
export interface ContractInstanceAddressPreimage {
  salt: Fr;
  initializationHash: Fr;
  deployer: AztecAddress;
  originalContractClassId: Fr;
  publicKeys: PublicKeys;
}

export function computeSaltedInitializationHash(
  i: Pick<ContractInstanceAddressPreimage, 'salt' | 'initializationHash' | 'deployer'>,
): bigint {
  return poseidon2HashWithSeparator(
    [i.salt.value, i.initializationHash.value, i.deployer.value],
    DomainSeparator.PARTIAL_ADDRESS,
  );
}

export function computePartialAddress(originalContractClassId: bigint, saltedInitializationHash: bigint): bigint {
  return poseidon2HashWithSeparator(
    [originalContractClassId, saltedInitializationHash],
    DomainSeparator.PARTIAL_ADDRESS,
  );
}

export function computePreaddress(publicKeysHash: bigint, partialAddress: bigint): bigint {
  return poseidon2HashWithSeparator([publicKeysHash, partialAddress], DomainSeparator.CONTRACT_ADDRESS_V1);
}

/** The address for given keys and partial address. Throws if the incoming viewing key is not a curve point. */
export function computeAddress(publicKeys: PublicKeys, partialAddress: bigint): AztecAddress {
  const ivpk = publicKeys.masterIncomingViewingPublicKey;
  if (!isOnGrumpkin(ivpk)) throw new Error('The master incoming viewing public key is not a Grumpkin point');
  const preaddress = computePreaddress(publicKeys.hash(), partialAddress);
  const point = grumpkinAdd(grumpkinMul(GRUMPKIN_GENERATOR, preaddress), ivpk);
  if (point.isInfinite) throw new Error('The address point is at infinity');
  return new AztecAddress(point.x);
}

export function computeContractAddressFromInstance(i: ContractInstanceAddressPreimage): AztecAddress {
  const partial = computePartialAddress(i.originalContractClassId.value, computeSaltedInitializationHash(i));
  return computeAddress(i.publicKeys, partial);
}

/** H_sep(INITIALIZER; selector, H_sep(FUNCTION_ARGS; args)): what an instance commits to about its constructor call. */
export function computeInitializationHash(selector: number, encodedArgs: readonly bigint[]): bigint {
  const argsHash = computeVarArgsHash(encodedArgs);
  return poseidon2HashWithSeparator([BigInt(selector), argsHash], DomainSeparator.INITIALIZER);
}

/** Hash of function arguments; 0 for none (4.1.2 computeVarArgsHash). */
export function computeVarArgsHash(args: readonly bigint[]): bigint {
  return args.length === 0 ? 0n : poseidon2HashWithSeparator(args, DomainSeparator.FUNCTION_ARGS);
}
