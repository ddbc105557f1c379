import { TxTrace } from '../../core/trace/tx-trace.js';
import { arrayResult, decimalResult, integerResult, jsonResult, nullable, objectResult } from '../result-codecs.js';
import { defineMethod, optional, required } from '../rpc-method.js';
import { aztecAddress, boolean, field, integer, objectOf, tx, txHash, unsignedBigInt } from '../wire-types.js';

/** Dev mode (admin listener, nodeDev_ namespace): controls that stand in for L1 on a dev chain. */

/** Where the inbox put a message: its leaf index in the message tree and the checkpoint that inserts it. */
export const inboxPositionResult = objectResult('{ index: string, checkpoint: number }', {
  index: decimalResult,
  checkpoint: integerResult,
});

/** What a trace may add and its bounds (each capped by --trace-max-steps / --trace-max-bytes). */
const traceOptions = objectOf(
  'TraceOptions',
  {},
  {
    opcodes: boolean,
    maxSteps: integer(1, 10_000_000),
    maxBytes: integer(1024, 2 ** 31),
  },
  { strict: true },
);

const traceCallOptions = objectOf(
  'TraceCallOptions',
  {},
  {
    opcodes: boolean,
    maxSteps: integer(1, 10_000_000),
    maxBytes: integer(1024, 2 ** 31),
    skipFeeEnforcement: boolean,
  },
  { strict: true },
);

const txTraceResult = jsonResult('TxTrace', TxTrace.toJSON, TxTrace.fromJSON);

export const DEV_METHODS = {
  nodeDev_traceTx: defineMethod({
    summary:
      'Re-executes a mined tx on the state before it (its block parent plus the block earlier txs) and returns ' +
      'its call tree (per call: phase, contract, class, selector and name, calldata, return data, gas, revert, ' +
      'storage reads and writes, nullifiers, note hashes, logs, messages, debug prints) and its gas profile; ' +
      '`opcodes` adds each call instruction trace, bounded in steps and bytes (LIMIT_EXCEEDED past them). Null ' +
      'for a tx the node has not mined.',
    params: [
      required('txHash', txHash, 'The mined tx.'),
      optional('options', traceOptions, '{ opcodes?: boolean, maxSteps?: number, maxBytes?: number }.'),
    ],
    result: nullable(txTraceResult),
    compat: { aztec: 'absent', note: "a debugging aid, as anvil's debug_traceTransaction" },
  }),
  nodeDev_traceCall: defineMethod({
    summary:
      'Runs an unmined tx as node_simulatePublicCalls does (latest state, the next block globals) and returns ' +
      'the same trace as nodeDev_traceTx; nothing is kept.',
    params: [
      required('tx', tx, 'The tx, as node_sendTx takes it.'),
      optional(
        'options',
        traceCallOptions,
        '{ opcodes?: boolean, maxSteps?: number, maxBytes?: number, skipFeeEnforcement?: boolean }.',
      ),
    ],
    result: txTraceResult,
    compat: { aztec: 'absent', note: "a debugging aid, as anvil's debug_traceCall" },
  }),
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
