/**
 * BlobKzg against a real L1 (anvil 1.7.1 from npm, on loopback): a blob tx built by viem with viemKzg() is
 * accepted and carries our versioned hashes and blobs, and L1's own point-evaluation precompile (0x0a, revm's
 * KZG, not node-eth-kzg) accepts the epoch's 192-byte blobInputs and rejects a tampered copy.
 */
import { createPublicClient, createWalletClient, http, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointEndMarker } from '../../../../src/core/blob/blob-fields.js';
import { BlobKzg } from '../../../../src/daemon/l1/blob-kzg.js';
import { ANVIL_FIRST_ACCOUNT_KEY } from '../../../../src/daemon/l1/l1-client.js';
import { spawnAnvil, type TestAnvil } from '../../../helpers/spawn-anvil.js';
import { scaled } from '../../../helpers/until.js';

const POINT_EVALUATION_PRECOMPILE = '0x000000000000000000000000000000000000000a';

let anvil: TestAnvil;
let kzg: BlobKzg;
beforeAll(async () => {
  anvil = await spawnAnvil();
  kzg = BlobKzg.create();
  await kzg.start(); // a few seconds: once for the file
}, scaled(60_000));
afterAll(async () => {
  anvil?.process.kill();
  await kzg?.close();
});

const clients = () => {
  const transport = http(anvil.url);
  return {
    l1: createPublicClient({ chain: foundry, transport }),
    wallet: createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(ANVIL_FIRST_ACCOUNT_KEY) }),
  };
};

/** n fields: 1..n-1, then the end marker. */
const payload = (n: number): bigint[] => [
  ...Array.from({ length: n - 1 }, (_, i) => BigInt(i + 1)),
  checkpointEndMarker(n),
];

describe('BlobKzg on anvil', () => {
  it('a blob tx sent with viemKzg() carries our versioned hashes, and anvil serves our blobs back', async () => {
    const { l1, wallet } = clients();
    const published = kzg.checkpointBlobs(payload(5000));
    const hash = await wallet.sendTransaction({
      to: '0x0000000000000000000000000000000000000001',
      blobs: [...published.blobs],
      kzg: kzg.viemKzg(),
      maxFeePerBlobGas: parseGwei('1'),
    });
    const receipt = await l1.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.blobGasUsed).toBe(2n * 131072n);
    const tx = await l1.getTransaction({ hash });
    expect(tx.blobVersionedHashes).toEqual(published.versionedHashes);
    const blobs = await l1.request({
      method: 'anvil_getBlobsByTransactionHash' as 'eth_chainId',
      params: [hash] as unknown as undefined,
    });
    expect(blobs).toEqual(published.blobs.map((b) => `0x${Buffer.from(b).toString('hex')}`));
  });

  it("L1's point-evaluation precompile accepts the epoch's blobInputs and rejects a wrong y", async () => {
    const { l1 } = clients();
    const blobInputs = kzg.epochBlobInputs([payload(5000), payload(9), payload(300)]);
    const ok = await l1.call({ to: POINT_EVALUATION_PRECOMPILE, data: blobInputs });
    // EIP-4844: success returns FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS as two 32-byte words.
    expect(BigInt((ok.data as string).slice(0, 66))).toBe(4096n);
    const bytes = Buffer.from(blobInputs.slice(2), 'hex');
    bytes[95] = (bytes[95] as number) ^ 1; // the last byte of y
    const tampered = `0x${bytes.toString('hex')}` as const;
    expect(tampered).not.toBe(blobInputs);
    await expect(l1.call({ to: POINT_EVALUATION_PRECOMPILE, data: tampered })).rejects.toThrow();
  });
});
