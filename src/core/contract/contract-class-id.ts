/**
 * A contract class id commits to the class's artifact hash, its private functions and its public bytecode
 * (4.1.2 contract/contract_class_id.ts, private_function.ts, abi/buffer.ts):
 *
 *   id = H_sep(CONTRACT_CLASS_ID; artifactHash, privateFunctionsRoot, publicBytecodeCommitment)
 */
import { DomainSeparator, MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS } from '../constants.js';
import { poseidon2Hash, poseidon2HashPair, poseidon2HashWithSeparator } from '../crypto/poseidon2.js';
import { bytesToBigInt } from '../serialize/field-bytes.js';

/** Height of the tree of a class's private functions. */
export const FUNCTION_TREE_HEIGHT = 7;

export function computeContractClassId(
  artifactHash: bigint,
  privateFunctionsRoot: bigint,
  publicBytecodeCommitment: bigint,
): bigint {
  return poseidon2HashWithSeparator(
    [artifactHash, privateFunctionsRoot, publicBytecodeCommitment],
    DomainSeparator.CONTRACT_CLASS_ID,
  );
}

/**
 * Bytes as fields the way Aztec packs bytecode into logs and hashes: the byte length first, then 31-byte
 * chunks each placed after a leading zero byte (a short last chunk is zero padded on the right).
 */
export function bufferAsFields(bytes: Uint8Array): bigint[] {
  const out: bigint[] = [BigInt(bytes.length)];
  for (let off = 0; off < bytes.length; off += 31) {
    const word = new Uint8Array(32);
    word.set(bytes.subarray(off, Math.min(off + 31, bytes.length)), 1);
    out.push(bytesToBigInt(word, 0, 32));
  }
  return out;
}

/** The inverse of bufferAsFields (fields beyond the encoded length are ignored). */
export function bufferFromFields(fields: readonly bigint[]): Buffer {
  if (fields.length === 0) throw new RangeError('No length field');
  const length = Number(fields[0]);
  const maxLength = (fields.length - 1) * 31;
  if (!Number.isSafeInteger(length) || length > maxLength) {
    throw new RangeError(`Encoded length ${fields[0]} exceeds the ${maxLength} bytes the fields hold`);
  }
  const out = Buffer.alloc(maxLength);
  for (let i = 1; i < fields.length && (i - 1) * 31 < length; i++) {
    const word = Buffer.from((fields[i] as bigint).toString(16).padStart(64, '0'), 'hex');
    word.copy(out, (i - 1) * 31, 1);
  }
  return out.subarray(0, length);
}

/**
 * H_sep(PUBLIC_BYTECODE + byteLength * 2^32; chunks): a commitment to the packed public bytecode that
 * hashes only the chunks actually used.
 */
export function computePublicBytecodeCommitment(packedBytecode: Uint8Array): bigint {
  const [length, ...chunks] = bufferAsFields(packedBytecode);
  if (chunks.length >= MAX_PACKED_PUBLIC_BYTECODE_SIZE_IN_FIELDS) {
    throw new RangeError('Bytecode exceeds maximum deployable size');
  }
  const separator = BigInt(DomainSeparator.PUBLIC_BYTECODE) + ((length as bigint) << 32n);
  return poseidon2HashWithSeparator(chunks, separator);
}

export interface PrivateFunctionLeafPreimage {
  /** The function selector (u32). */
  selector: number;
  vkHash: bigint;
}

/**
 * Root of the height-7 tree of a class's private functions: leaves H_sep(PRIVATE_FUNCTION_LEAF; selector,
 * vkHash) sorted by selector, empty leaves Poseidon2(0, 0), nodes Poseidon2(left, right).
 */
export function computePrivateFunctionsRoot(fns: readonly PrivateFunctionLeafPreimage[]): bigint {
  const size = 1 << FUNCTION_TREE_HEIGHT;
  if (fns.length > size) throw new RangeError(`At most ${size} private functions, got ${fns.length}`);
  let level = [...fns]
    .sort((a, b) => a.selector - b.selector)
    .map((f) => poseidon2HashWithSeparator([BigInt(f.selector), f.vkHash], DomainSeparator.PRIVATE_FUNCTION_LEAF));
  let zero = poseidon2Hash([0n, 0n]);
  for (let h = 0; h < FUNCTION_TREE_HEIGHT; h++) {
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(poseidon2HashPair(level[i] as bigint, i + 1 < level.length ? (level[i + 1] as bigint) : zero));
    }
    level = next;
    zero = poseidon2HashPair(zero, zero);
  }
  return level.length === 0 ? zero : (level[0] as bigint);
}
