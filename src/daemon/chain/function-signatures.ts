import { selectorFromSignature } from '../mempool/selector-from-signature.js';
import type { FunctionSignatureRepository } from '../store/function-signature-repository.js';

/**
 * Function signatures clients registered (node_registerContractFunctionSignatures), kept in the database by
 * selector so that revert reasons of public execution name the functions that failed (by name, as 4.1.2 does).
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
}

/** A signature that cannot be registered. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}
