import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_VECTORS_PATH, VECTORS_PATH } from '../../helpers/vectors.js';

describe('reference vectors fixture', () => {
  it.skipIf(!existsSync(SHARED_VECTORS_PATH))('equals shared/reference/vectors.json', () => {
    expect(JSON.parse(readFileSync(VECTORS_PATH, 'utf8'))).toEqual(
      JSON.parse(readFileSync(SHARED_VECTORS_PATH, 'utf8')),
    );
  });
  it('holds the sections the tests read', () => {
    const v = JSON.parse(readFileSync(VECTORS_PATH, 'utf8'));
    for (const k of ['poseidon2', 'emptyTreeRoots', 'genesis', 'insertions', 'hashes', 'domainSeparators']) {
      expect(v, k).toHaveProperty(k);
    }
  });
});
