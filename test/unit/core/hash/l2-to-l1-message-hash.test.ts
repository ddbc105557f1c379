import { Fr as StdFr } from '@aztec/foundation/curves/bn254';
import { EthAddress as StdEthAddress } from '@aztec/foundation/eth-address';
import { AztecAddress as StdAztecAddress } from '@aztec/stdlib/aztec-address';
import { computeL2ToL1MessageHash as stdHash } from '@aztec/stdlib/hash';
import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { EthAddress } from '../../../../src/core/eth-address.js';
import { computeL2ToL1MessageHash } from '../../../../src/core/hash/l2-to-l1-message-hash.js';

describe('computeL2ToL1MessageHash', () => {
  it('matches stdlib', () => {
    const recipient = '0x00000000000000000000000000000000000abcde';
    const expected = stdHash({
      l2Sender: new StdAztecAddress(new StdFr(6n)),
      l1Recipient: StdEthAddress.fromString(recipient),
      content: new StdFr(5n),
      rollupVersion: new StdFr(1234n),
      chainId: new StdFr(31337n),
    });
    const ours = computeL2ToL1MessageHash({
      l2Sender: new AztecAddress(6n),
      l1Recipient: EthAddress.fromString(recipient),
      content: 5n,
      rollupVersion: 1234n,
      chainId: 31337n,
    });
    expect(ours).toBe(expected.toBigInt());
  });
});
