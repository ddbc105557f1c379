import type { Tx } from '../../core/tx/tx.js';
import { selectorFromSignature } from '../mempool/selector-from-signature.js';
import type { FunctionSignatureRepository } from '../store/function-signature-repository.js';

/**
 * Function signatures clients registered (node_registerContractFunctionSignatures), kept in the database by
 * selector so that errors can name the function a tx calls instead of a bare selector.
 */
export class FunctionSignatures {
  constructor(private readonly repo: FunctionSignatureRepository) {}

  /** Registers signatures such as `transfer(Field,u128)`; throws naming the first malformed one. */
  register(signatures: readonly string[]): void {
    const entries = signatures.map((sig, i) => {
      if (/\s/.test(sig) || !/^[^()]+\(.*\)$/.test(sig)) {
        throw new SignatureError(
          `Signature ${i} ("${sig.slice(0, 60)}") is not a function signature such as transfer(Field,u128) (no whitespace)`,
        );
      }
      return [selectorFromSignature(sig).value, sig] as const;
    });
    for (const [selector, sig] of entries) this.repo.put(selector, sig);
  }

  /** The registered signature of a selector. */
  nameOf(selector: number): string | undefined {
    return this.repo.get(selector);
  }

  /** The first public function a tx calls: `signature (selector) on contract`, or the selector alone. */
  describeFirstPublicCall(tx: Tx): string {
    const call = tx.data.getPublicCallRequests()[0];
    if (!call) return 'no public function';
    const calldata = tx.publicFunctionCalldata.find((c) => c.hash.equals(call.calldataHash));
    const first = calldata?.values[0];
    const at = `on ${call.contractAddress}`;
    if (!first || first.value > 0xffffffffn) return `a public function ${at}`;
    const selector = Number(first.value);
    const hex = `0x${selector.toString(16).padStart(8, '0')}`;
    const name = this.nameOf(selector);
    return name ? `${name} (${hex}) ${at}` : `public function ${hex} ${at}`;
  }
}

/** A signature that cannot be registered. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}
