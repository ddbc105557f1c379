import { poseidon2HashBytes } from '../../core/crypto/poseidon2.js';
import { bigIntToBuffer32, readField32 } from '../../core/serialize/field-bytes.js';

/**
 * The siblings of a leaf from the leaf level up to just below the root: `nodes[0]` is the leaf's neighbour.
 * Nodes are 32-byte big-endian field elements.
 */
export class SiblingPath {
  constructor(readonly nodes: readonly Buffer[]) {}

  get length(): number {
    return this.nodes.length;
  }

  toBigInts(): bigint[] {
    return this.nodes.map((node) => readField32(node));
  }

  /** From the wire layout (the SiblingPath result codec of the method table writes it): u32 count, then the nodes. */
  static fromBuffer(buf: Uint8Array): SiblingPath {
    const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (b.length < 4) throw new RangeError('A sibling path needs a 4-byte count');
    const n = b.readUInt32BE(0);
    if (b.length !== 4 + 32 * n)
      throw new RangeError(`A sibling path of ${n} nodes has ${4 + 32 * n} bytes, got ${b.length}`);
    return new SiblingPath(Array.from({ length: n }, (_, i) => b.subarray(4 + 32 * i, 36 + 32 * i)));
  }

  /** The root reached by hashing `leaf` at `index` up this path (how a verifier checks a witness). */
  computeRoot(leaf: bigint, index: bigint): bigint {
    let node: Uint8Array = bigIntToBuffer32(leaf);
    let i = index;
    for (const sibling of this.nodes) {
      node = (i & 1n) === 0n ? poseidon2HashBytes([node, sibling]) : poseidon2HashBytes([sibling, node]);
      i >>= 1n;
    }
    return readField32(node);
  }
}
