import { Fr, parseFieldString, toHex64 } from './fr.js';

/** A block hash (the Poseidon2 hash of the block header, also its archive leaf). Parsed by the Fr rules. */
export class BlockHash {
  readonly value: bigint;

  constructor(value: bigint) {
    this.value = new Fr(value).value;
  }

  static fromString(s: string): BlockHash {
    return new BlockHash(parseFieldString(s));
  }

  static fromField(f: Fr | bigint): BlockHash {
    return new BlockHash(typeof f === 'bigint' ? f : f.value);
  }

  equals(other: BlockHash): boolean {
    return this.value === other.value;
  }

  toBuffer(): Buffer {
    return new Fr(this.value).toBuffer();
  }

  toString(): string {
    return toHex64(this.value);
  }

  toJSON(): string {
    return this.toString();
  }
}
