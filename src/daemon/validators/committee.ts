import { EthAddress } from '../../core/eth-address.js';

/** Attestations a checkpoint needs from a committee of `size` (as 4.1.2 and its rollup contract): 2/3 + 1. */
export function committeeQuorum(size: number): number {
  return Math.floor((size * 2) / 3) + 1;
}

/**
 * The validators of a slot, in address order (so the order never depends on how files or settings list them).
 * The slot's proposer is picked from the slot number alone, round robin: every member proposes once every
 * `size` slots, which makes who is due (and who missed) easy to read.
 */
export class Committee {
  readonly members: readonly EthAddress[];

  constructor(addresses: Iterable<EthAddress>) {
    const unique = new Map<string, EthAddress>();
    for (const a of addresses) unique.set(a.toString(), a);
    this.members = [...unique.values()].sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  }

  get size(): number {
    return this.members.length;
  }

  get quorum(): number {
    return committeeQuorum(this.size);
  }

  proposerOf(slot: number): EthAddress | undefined {
    return this.size === 0 ? undefined : this.members[slot % this.size];
  }

  includes(address: EthAddress): boolean {
    return this.members.some((m) => m.equals(address));
  }

  /** Storage form: the 20-byte addresses one after the other. */
  encode(): Buffer {
    return Buffer.concat(this.members.map((m) => m.bytes));
  }

  static decode(buf: Uint8Array): Committee {
    const members: EthAddress[] = [];
    for (let o = 0; o + 20 <= buf.length; o += 20) members.push(EthAddress.fromBuffer(buf.subarray(o, o + 20)));
    return new Committee(members);
  }
}
