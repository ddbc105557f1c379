import { arrayResult, decimalResult, integerResult, nullable, objectResult } from '../result-codecs.js';
import { defineMethod, optional, required } from '../rpc-method.js';
import { aztecAddress, field, integer, unsignedBigInt } from '../wire-types.js';

/** Dev mode (admin listener, nodeDev_ namespace): controls that stand in for L1 on a dev chain. */

/** Where the inbox put a message: its leaf index in the message tree and the checkpoint that inserts it. */
export const inboxPositionResult = objectResult('{ index: string, checkpoint: number }', {
  index: decimalResult,
  checkpoint: integerResult,
});

export const DEV_METHODS = {
  nodeDev_sendL1ToL2Message: defineMethod({
    summary:
      'Dev mode: sends an L1-to-L2 message as the L1 Inbox would; it enters the message tree with the next checkpoint.',
    params: [required('message', field, 'The message leaf (a non-zero field element).')],
    result: inboxPositionResult,
    compat: { aztec: 'absent', note: 'dev mode only: stands in for the L1 Inbox contract' },
  }),
  nodeDev_mineBlocks: defineMethod({
    summary:
      'Dev mode: builds that many blocks now (default 1), each with the pending txs that fit or none, each its ' +
      'own checkpoint published at once; returns their numbers (fewer when the sequencer could not build).',
    params: [optional('count', integer(1, 1000), 'How many blocks to build, 1 to 1000 (default 1).')],
    result: arrayResult(integerResult),
    compat: { aztec: 'absent', note: "dev mode only: anvil's anvil_mine" },
  }),
  nodeDev_increaseTime: defineMethod({
    summary:
      'Dev mode: moves L2 time by that many seconds (slots, block timestamps, tx expiry, proofs follow); back ' +
      "too, but never before the latest block's timestamp. Returns L2 time now (Unix seconds).",
    params: [required('seconds', integer(-(2 ** 40), 2 ** 40), 'Seconds to add (negative goes back).')],
    result: integerResult,
    compat: { aztec: 'absent', note: "dev mode only: anvil's evm_increaseTime" },
  }),
  nodeDev_setNextBlockTimestamp: defineMethod({
    summary:
      'Dev mode: the next block carries exactly this timestamp (in the next slot) and L2 time runs on from it; ' +
      "not before the latest block's timestamp. Returns the timestamp.",
    params: [required('timestamp', integer(0, 2 ** 40), 'Unix seconds.')],
    result: integerResult,
    compat: { aztec: 'absent', note: "dev mode only: anvil's evm_setNextBlockTimestamp" },
  }),
  nodeDev_snapshot: defineMethod({
    summary:
      'Dev mode: takes a snapshot of the whole node (chain, world state, pool, L2 time) and returns its id, for ' +
      'nodeDev_revert. At most --dev-snapshot-limit are live; they do not outlive the node.',
    params: [],
    result: integerResult,
    compat: { aztec: 'absent', note: "dev mode only: anvil's evm_snapshot" },
  }),
  nodeDev_revert: defineMethod({
    summary:
      'Dev mode: puts the whole node back as the snapshot found it, consuming that snapshot and every later one; ' +
      'returns the block number the chain is back at. Followers see it as a reorg.',
    params: [required('id', integer(1, 2 ** 31 - 1), 'A live snapshot id (nodeDev_snapshot).')],
    result: integerResult,
    compat: { aztec: 'absent', note: "dev mode only: anvil's evm_revert" },
  }),
  nodeDev_setPublicStorage: defineMethod({
    summary:
      "Dev mode: a contract's public storage slot holds the value from the next block on (applied before its txs; " +
      'in instant mode that block is built now). Returns the block that applied it, or null while it waits.',
    params: [
      required('contract', aztecAddress, 'The contract address.'),
      required('slot', field, 'The storage slot (as the contract declares it, not siloed).'),
      required('value', field, 'The new value.'),
    ],
    result: nullable(integerResult),
    compat: { aztec: 'absent', note: "dev mode only: anvil's anvil_setStorageAt" },
  }),
  nodeDev_setFeeJuiceBalance: defineMethod({
    summary:
      'Dev mode: an address holds that FeeJuice from the next block on (its FeeJuice balance slot; in instant mode ' +
      'that block is built now). Returns the block that applied it, or null while it waits.',
    params: [
      required('address', aztecAddress, 'The account or contract (an FPC, say) to fund.'),
      required(
        'amount',
        unsignedBigInt,
        'The new balance in FeeJuice base units (a decimal string; at most 2^128 - 1).',
      ),
    ],
    result: nullable(integerResult),
    compat: { aztec: 'absent', note: "dev mode only: anvil's anvil_setBalance" },
  }),
};
