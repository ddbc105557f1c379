import { AztecAddress } from '../../src/core/aztec-address.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { Fr } from '../../src/core/fr.js';
import type { Tx } from '../../src/core/tx/tx.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';

/** A well-formed tx on an empty anchor, for tests of params: a tx param is decoded before any handler runs. */
export function aTx(): Tx {
  const builder = new TxBuilder({
    chainId: 31337n,
    rollupVersion: 1n,
    vkTreeRoot: new Fr(77n),
    protocolContractsHash: new Fr(88n),
    anchorBlockHeader: BlockHeader.empty(),
  });
  return builder.build({ feePayer: new AztecAddress(0xfeen), txRequestHash: new Fr(1n) });
}
