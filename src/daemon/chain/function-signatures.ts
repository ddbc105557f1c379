import { selectorFromSignature } from '../../core/contract/selector-from-signature.js';
import type { FunctionSignatureRepository } from '../store/function-signature-repository.js';

/**
 * Function signatures clients registered (node_registerContractFunctionSignatures), kept in the database by
 * selector so that revert reasons of public execution name the functions that failed (by name, as 4.1.2 does).
 */
export class FunctionSignatures {
  constructor(private readonly repo: FunctionSignatureRepository) {}

  /**
   * Registers signatures such as `transfer((Field),u128)`; throws naming the first malformed one (and then
   * registers none). A selector keeps the first signature registered for it.
   */
  register(signatures: readonly string[]): void {
    const entries = signatures.map((sig, i) => {
      const why = signatureProblem(sig);
      if (why) {
        throw new SignatureError(
          `Signature ${i} ("${sig.slice(0, 60)}${sig.length > 60 ? '...' : ''}") is not a function signature such as transfer((Field),u128): ${why}`,
        );
      }
      return [selectorFromSignature(sig).value, sig] as const;
    });
    this.repo.putAll(entries);
  }

  /** The registered signature of a selector. */
  nameOf(selector: number): string | undefined {
    return this.repo.get(selector);
  }
}

/** Longest signature accepted, in characters: Noir signatures of real contracts are far shorter. */
export const MAX_SIGNATURE_LENGTH = 1024;
/** Deepest nesting of arrays and structs in a parameter type. */
const MAX_TYPE_DEPTH = 16;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const DIGITS = /[0-9]+/y;

/**
 * Why `sig` is not a Noir function signature, or undefined when it is one: `name(type,...)`, where a type is a
 * name with an optional `<N>` (Field, u128, bool, str<31>), an array `[type;N]`, or a struct or tuple
 * `(type,...)`, without whitespace.
 */
export function signatureProblem(sig: string): string | undefined {
  if (sig.length > MAX_SIGNATURE_LENGTH) return `longer than ${MAX_SIGNATURE_LENGTH} characters`;
  let at = 0;
  const match = (re: RegExp) => {
    re.lastIndex = at;
    const m = re.exec(sig);
    if (m) at = re.lastIndex;
    return m !== null;
  };
  const eat = (c: string) => {
    if (sig[at] !== c) return false;
    at++;
    return true;
  };
  const list = (depth: number): boolean => {
    if (!eat('(')) return false;
    if (eat(')')) return true;
    do {
      if (!type(depth + 1)) return false;
    } while (eat(','));
    return eat(')');
  };
  const type = (depth: number): boolean => {
    if (depth > MAX_TYPE_DEPTH) return false;
    if (sig[at] === '(') return list(depth);
    if (eat('[')) return type(depth + 1) && eat(';') && match(DIGITS) && eat(']');
    if (!match(IDENT)) return false;
    return eat('<') ? match(DIGITS) && eat('>') : true;
  };
  if (!match(IDENT)) return 'it must start with the function name';
  if (!list(0) || at !== sig.length) {
    return `unexpected ${at < sig.length ? `"${sig.slice(at, at + 10)}"` : 'end'} at character ${at}`;
  }
  return undefined;
}

/** A signature that cannot be registered. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}
