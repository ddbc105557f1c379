import type { EthAddress } from '../../core/eth-address.js';
import type { ValidatorIdentity } from './validator-identity.js';

/**
 * A loaded, validated keystore: the attesters this node signs for, by address. Immutable: a reload builds a new
 * one and swaps it in whole, so a slot never sees half of each.
 */
export class ValidatorKeystore {
  private readonly byAddress: ReadonlyMap<string, ValidatorIdentity>;

  constructor(
    /** The file or directory it was read from. */
    readonly path: string,
    readonly validators: readonly ValidatorIdentity[],
  ) {
    this.byAddress = new Map(validators.map((v) => [v.address.toString(), v]));
  }

  get(address: EthAddress): ValidatorIdentity | undefined {
    return this.byAddress.get(address.toString());
  }

  has(address: EthAddress): boolean {
    return this.byAddress.has(address.toString());
  }

  get addresses(): EthAddress[] {
    return this.validators.map((v) => v.address);
  }

  /** Every L1 publisher address the validators use (lowercase 0x form). */
  publisherAddresses(): Set<string> {
    return new Set(this.validators.flatMap((v) => v.publishers.map((p) => p.toString())));
  }
}
