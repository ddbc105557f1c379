import { inspect } from 'node:util';
import type { Hex, LocalAccount } from 'viem';
import type { AztecAddress } from '../../core/aztec-address.js';
import type { EthAddress } from '../../core/eth-address.js';

/**
 * One attester this node holds the key of, with what its checkpoints carry (coinbase, fee recipient) and the
 * L1 accounts that publish them. The key stays inside the viem account: it is never a field, never logged
 * (toJSON and inspect show the public parts only).
 */
export class ValidatorIdentity {
  readonly #account: LocalAccount;

  constructor(
    account: LocalAccount,
    readonly address: EthAddress,
    readonly coinbase: EthAddress,
    readonly feeRecipient: AztecAddress,
    /** L1 publisher addresses, first one used. */
    readonly publishers: readonly EthAddress[],
    /** Where it was declared: `<file> validators[i]`. */
    readonly source: string,
  ) {
    this.#account = account;
  }

  /** An EIP-191 personal signature of a 32-byte digest (what 4.1.2 validators sign): 0x + r + s + v. */
  signDigest(digest: Hex): Promise<Hex> {
    return this.#account.signMessage({ message: { raw: digest } });
  }

  toJSON(): Record<string, unknown> {
    return {
      address: this.address.toString(),
      coinbase: this.coinbase.toString(),
      feeRecipient: this.feeRecipient.toString(),
      publishers: this.publishers.map((p) => p.toString()),
      source: this.source,
    };
  }

  [inspect.custom](): string {
    return `ValidatorIdentity ${JSON.stringify(this.toJSON())}`;
  }
}
