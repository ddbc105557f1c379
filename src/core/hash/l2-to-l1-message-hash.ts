import type { AztecAddress } from '../aztec-address.js';
import { sha256ToField } from '../crypto/sha256-to-field.js';
import type { EthAddress } from '../eth-address.js';
import { bigIntToBuffer32 } from '../serialize/field-bytes.js';

/**
 * The hash of an L2-to-L1 message as it goes into TxEffect.l2ToL1Msgs and the out-hash tree (4.1.2
 * computeL2ToL1MessageHash): sha256ToField over sender (32 B), rollup version (32 B), L1 recipient (20 B),
 * chain id (32 B), content (32 B).
 */
export function computeL2ToL1MessageHash(m: {
  l2Sender: AztecAddress;
  l1Recipient: EthAddress;
  content: bigint;
  rollupVersion: bigint;
  chainId: bigint;
}): bigint {
  return sha256ToField([
    bigIntToBuffer32(m.l2Sender.value),
    bigIntToBuffer32(m.rollupVersion),
    m.l1Recipient.bytes,
    bigIntToBuffer32(m.chainId),
    bigIntToBuffer32(m.content),
  ]);
}
