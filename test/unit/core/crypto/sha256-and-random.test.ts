/**
 * The SHA-256 and the random bytes a dev start uses without node:crypto (src/core/crypto; issue 27): noble's
 * SHA-256 answers what node:crypto's does for the inputs the protocol hashes (bytes in parts, UTF-8 text, the
 * empty input), and the system's generator gives bytes of the size asked, not the same twice.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomToken48, secureRandomBytes } from '../../../../src/core/crypto/secure-random-bytes.js';
import { newSha256, sha256ToField } from '../../../../src/core/crypto/sha256-to-field.js';

describe('newSha256', () => {
  it("answers node:crypto's digests for bytes in parts, text and the empty input", () => {
    const parts = [Buffer.alloc(0), Buffer.from('00ff10', 'hex'), Buffer.alloc(100, 7), Buffer.alloc(64, 1)];
    const ours = newSha256();
    const theirs = createHash('sha256');
    for (const p of parts) {
      ours.update(p);
      theirs.update(p);
    }
    expect(ours.digest().equals(theirs.digest())).toBe(true);
    const text = 'l2node dev L1 rollup ✓';
    expect(newSha256().update(text).digest().toString('hex')).toBe(
      createHash('sha256').update(text, 'utf8').digest('hex'),
    );
    expect(newSha256().digest().toString('hex')).toBe(createHash('sha256').digest('hex'));
  });

  it('sha256ToField is the digest truncated to 31 bytes behind a zero byte', () => {
    const data = Buffer.alloc(300, 0xab);
    const digest = createHash('sha256').update(data).digest();
    expect(sha256ToField(data)).toBe(BigInt(`0x${digest.subarray(0, 31).toString('hex')}`));
    expect(sha256ToField([data.subarray(0, 10), data.subarray(10)])).toBe(sha256ToField(data));
  });
});

describe('secureRandomBytes', () => {
  it('gives as many bytes as asked, different each time', () => {
    const a = secureRandomBytes(32);
    const b = secureRandomBytes(32);
    expect(a.length).toBe(32);
    expect(a.equals(b)).toBe(false);
    expect(secureRandomBytes(0).length).toBe(0);
    expect(secureRandomBytes(5000).length).toBe(5000);
  });

  it('randomToken48 is an integer of at most 48 bits', () => {
    const tokens = Array.from({ length: 50 }, () => randomToken48());
    for (const t of tokens) {
      expect(Number.isSafeInteger(t)).toBe(true);
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThan(2 ** 48);
    }
    expect(new Set(tokens).size).toBe(50);
  });
});
