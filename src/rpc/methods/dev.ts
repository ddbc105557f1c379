import { arrayResult, decimalResult, integerResult, objectResult } from '../result-codecs.js';
import { defineMethod, optional, required } from '../rpc-method.js';
import { field, integer } from '../wire-types.js';

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
};
