import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** A fixed test private key per index (never a real key): keccak256 of "l2node test validator <i>". */
export function testKey(i: number): `0x${string}` {
  return keccak256(toHex(`l2node test validator ${i}`));
}

/** The lowercase address of testKey(i). */
export function testAddress(i: number): string {
  return privateKeyToAccount(testKey(i)).address.toLowerCase();
}

/** An L2 address (fee recipient) made of one repeated byte. */
export function feeRecipient(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0').repeat(32)}`;
}

/** A temporary keystore directory; `write` puts a file in it (objects as JSON), `cleanup` removes it. */
export function keystoreDir(): { dir: string; write(name: string, content: unknown): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-keystore-'));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A schema-1 keystore of validators with keys testKey(i), all published by testKey(publisher). */
export function keystoreV1(indexes: readonly number[], publisher = indexes[0] ?? 0): Record<string, unknown> {
  return {
    schemaVersion: 1,
    validators: indexes.map((i) => ({
      attester: testKey(i),
      coinbase: testAddress(i),
      feeRecipient: feeRecipient(i + 1),
      publisher: testKey(publisher),
    })),
  };
}
