import type { AztecAddress } from '../aztec-address.js';
import type { Fr } from '../fr.js';
import { DecodeError, joinPath } from '../serialize/decode-error.js';
import { readAztecAddress, readFr, readObject } from '../serialize/json-reader.js';
import { computeContractAddressFromInstance } from './contract-address.js';
import { PublicKeys, type PublicKeysJson } from './public-keys.js';

export interface ContractInstanceWithAddressJson {
  version: 1;
  salt: string;
  deployer: string;
  currentContractClassId: string;
  originalContractClassId: string;
  initializationHash: string;
  publicKeys: PublicKeysJson;
  address: string;
}

/**
 * A deployed contract instance as `node_getContract` returns it (docs/aztec-facts.md section 2.7). The current
 * class differs from the original after an upgrade; the address commits to the original.
 */
export class ContractInstanceWithAddress {
  readonly version = 1 as const;

  constructor(
    readonly salt: Fr,
    readonly deployer: AztecAddress,
    readonly currentContractClassId: Fr,
    readonly originalContractClassId: Fr,
    readonly initializationHash: Fr,
    readonly publicKeys: PublicKeys,
    readonly address: AztecAddress,
  ) {}

  /** Whether `address` is the one the other fields derive (what 4.1.2's ContractInstance validator checks). */
  hasCorrectAddress(): boolean {
    return computeContractAddressFromInstance(this).equals(this.address);
  }

  toJSON(): ContractInstanceWithAddressJson {
    return {
      version: 1,
      salt: this.salt.toString(),
      deployer: this.deployer.toString(),
      currentContractClassId: this.currentContractClassId.toString(),
      originalContractClassId: this.originalContractClassId.toString(),
      initializationHash: this.initializationHash.toString(),
      publicKeys: this.publicKeys.toJSON(),
      address: this.address.toString(),
    };
  }

  static fromJSON(json: unknown, path = 'contractInstance'): ContractInstanceWithAddress {
    const o = readObject(json, path);
    if (o.version !== 1)
      throw new DecodeError(joinPath(path, 'version'), `expected 1, received ${JSON.stringify(o.version)}`);
    return new ContractInstanceWithAddress(
      readFr(o.salt, path, 'salt'),
      readAztecAddress(o.deployer, path, 'deployer'),
      readFr(o.currentContractClassId, path, 'currentContractClassId'),
      readFr(o.originalContractClassId, path, 'originalContractClassId'),
      readFr(o.initializationHash, path, 'initializationHash'),
      PublicKeys.fromJSON(o.publicKeys, joinPath(path, 'publicKeys')),
      readAztecAddress(o.address, path, 'address'),
    );
  }
}
