/**
 * Tagged memory: every cell of the 2^32 address space is usable (dense pages low, maps high), unwritten cells are
 * field 0, and slice accesses past the top halt with 4.1.2's message.
 */
import { describe, expect, test } from 'vitest';
import { AvmHaltError } from '../../../../src/core/avm/errors.js';
import { TaggedMemory } from '../../../../src/core/avm/memory.js';

describe('TaggedMemory', () => {
  test('unwritten cells read as field 0, anywhere', () => {
    const m = new TaggedMemory();
    for (const a of [0, 1023, 1024, 65_535, 2 ** 24, 2 ** 32 - 1]) {
      expect(m.getTag(a)).toBe(0);
      expect(m.get(a)).toBe(0n);
    }
  });

  test('writes keep tag and value across page boundaries and in the sparse top region', () => {
    const m = new TaggedMemory();
    const cells: [number, number, bigint][] = [
      [0, 4, 7n],
      [1023, 2, 255n],
      [1024, 6, (1n << 128n) - 1n],
      [40_000, 5, 1n << 63n],
      [2 ** 24 - 1, 1, 1n],
      [2 ** 24, 3, 65_535n],
      [2 ** 32 - 1, 0, 123n],
    ];
    for (const [a, t, v] of cells) m.set(a, t, v);
    for (const [a, t, v] of cells) {
      expect(m.getTag(a)).toBe(t);
      expect(m.get(a)).toBe(v);
    }
    expect(m.get(1022)).toBe(0n);
    expect(m.get(2 ** 24 + 1)).toBe(0n);
  });

  test('slices past 2^32 halt with the 4.1.2 message', () => {
    const m = new TaggedMemory();
    expect(() => m.getSlice(2 ** 32 - 2, 3)).toThrow(AvmHaltError);
    expect(() => m.setSlice(2 ** 32 - 2, 0, [1n, 2n, 3n])).toThrow(
      'Memory slice is out of range. Base address 4294967294, size 3',
    );
    expect(m.getSlice(2 ** 32 - 2, 2)).toEqual([0n, 0n]);
  });

  test('tag checks name the offset and both tags', () => {
    const m = new TaggedMemory();
    m.set(5, 2, 1n);
    expect(() => m.checkTag(5, 4)).toThrow('Tag mismatch at offset 5, got UINT8, expected UINT32');
    expect(() => m.checkTagRange(4, 3, 0)).toThrow('Tag mismatch at offset 5, got UINT8, expected FIELD');
    expect(() => m.readAddress(5, 'indirect')).toThrow(
      'Address after indirection is not a valid address (address 5 has tag UINT8)',
    );
  });
});
