import { DecodeError } from '../serialize/decode-error.js';

const SELECTOR_HEX = /^(0x)?[0-9a-fA-F]{8}$/;

/** A 4-byte function selector; JSON 0x + 8 hex digits; as a field, its integer value. */
export class FunctionSelector {
  constructor(readonly value: number) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`A selector fits in 4 bytes, got ${value}`);
    }
  }

  static fromString(s: string, path = 'selector'): FunctionSelector {
    if (typeof s !== 'string' || !SELECTOR_HEX.test(s)) {
      throw new DecodeError(path, 'expected a selector as 0x + 8 hex digits');
    }
    return new FunctionSelector(Number.parseInt(s.startsWith('0x') ? s.slice(2) : s, 16));
  }

  equals(other: FunctionSelector): boolean {
    return this.value === other.value;
  }

  toString(): string {
    return `0x${this.value.toString(16).padStart(8, '0')}`;
  }

  toJSON(): string {
    return this.toString();
  }
}
