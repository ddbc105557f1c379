import { newSha256, sha256ToField } from '../crypto/sha256-to-field.js';

/** EIP-4844's version byte of a KZG versioned hash. */
const VERSIONED_HASH_VERSION_KZG = 0x01;

/**
 * EIP-4844 `kzg_to_versioned_hash`: sha256 of the 48-byte commitment with its first byte replaced by 0x01.
 * What the `blobhash` opcode returns for the blob, and what L1 compares a checkpoint's commitments with.
 */
export function kzgVersionedHash(commitment: Uint8Array): Uint8Array {
  const hash = newSha256().update(commitment).digest();
  hash[0] = VERSIONED_HASH_VERSION_KZG;
  return new Uint8Array(hash.buffer, hash.byteOffset, hash.byteLength);
}

/**
 * A checkpoint header's `blobsHash`: sha256ToField over the versioned hashes of the checkpoint's blobs, in
 * blob order. The rollup contract computes the same value from `blobhash(i)` at propose and rejects a header
 * that carries another.
 */
export function blobsHashOf(versionedHashes: readonly Uint8Array[]): bigint {
  return sha256ToField(versionedHashes);
}
