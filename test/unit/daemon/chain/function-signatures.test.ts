import { describe, expect, it } from 'vitest';
import { selectorFromSignature } from '../../../../src/core/contract/selector-from-signature.js';
import { FunctionSignatures, signatureProblem } from '../../../../src/daemon/chain/function-signatures.js';
import { FunctionSignatureRepository } from '../../../../src/daemon/store/function-signature-repository.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';

/**
 * Registered function signatures (issue 16, item 4): the grammar of Noir signatures, the first signature of a
 * selector kept against a later, different one, and the table bounded with the oldest dropped first.
 */
function repository(capacity: number): FunctionSignatureRepository {
  return new FunctionSignatureRepository(openNodeDatabase(null), capacity);
}

describe('signatureProblem', () => {
  it('accepts Noir signatures: names, <N>, arrays, structs and tuples', () => {
    for (const ok of ['f()', 'transfer((Field),u128)', 'g([u8;32],str<31>,bool)', 'h(((Field,Field),[(u8,i64);3]))']) {
      expect(signatureProblem(ok), ok).toBeUndefined();
    }
  });

  it('names what is wrong and where', () => {
    expect(signatureProblem('f(Field')).toBe('unexpected end at character 7');
    expect(signatureProblem('f (Field)')).toMatch(/unexpected " \(Field\)" at character 1/);
    expect(signatureProblem('9f()')).toBe('it must start with the function name');
    expect(signatureProblem(`f(${'Field,'.repeat(200)}Field)`)).toBe('longer than 1024 characters');
    expect(signatureProblem(`f(${'['.repeat(20)}Field${';1]'.repeat(20)})`)).toMatch(/unexpected/);
  });
});

describe('the signature table', () => {
  it('keeps the first signature of a selector: a later, different one never overwrites it', () => {
    const repo = repository(10);
    repo.putAll([[7, 'first(Field)']]);
    repo.putAll([[7, 'second(Field)']]);
    expect(repo.get(7)).toBe('first(Field)');
  });

  it('drops the oldest registrations past its capacity', () => {
    const repo = repository(3);
    const signatures = new FunctionSignatures(repo);
    signatures.register(['a()', 'b()']);
    signatures.register(['c()', 'd()', 'e()']);
    expect(repo.count()).toBe(3);
    const name = (sig: string) => signatures.nameOf(selectorFromSignature(sig).value);
    expect([name('a()'), name('b()'), name('c()'), name('d()'), name('e()')]).toEqual([
      undefined,
      undefined,
      'c()',
      'd()',
      'e()',
    ]);
  });
});
