import {
  arrayResult,
  integerResult,
  jsonValueResult,
  numberResult,
  objectResult,
  optionalKey,
  recordResult,
  stringResult,
  voidResult,
} from '../result-codecs.js';
import { defineMethod, optional, required } from '../rpc-method.js';
import { boolean, integer, jsonObject, nonEmptyString, slashRound } from '../wire-types.js';
import { MAX_BLOCK, SAME } from './shared-params.js';

/** Admin operations (admin listener): runtime configuration, sync control, rollback, snapshots, slashing. */

/** An offense of a validator (4.1.2 Offense): amounts and epochs or slots as decimal strings. */
export const offenseResult = objectResult('Offense', {
  validator: stringResult,
  amount: stringResult,
  offenseType: integerResult,
  epochOrSlot: stringResult,
});

/** A connected P2P peer (docs/network.md): scores are 0 for a peer that never misbehaved, negative after. */
export const peerResult = objectResult('Peer', {
  id: stringResult,
  direction: stringResult,
  addresses: arrayResult(stringResult),
  score: numberResult,
  gossipScore: numberResult,
  status: optionalKey(
    objectResult('PeerStatus', {
      latestBlockNumber: integerResult,
      latestBlockHash: stringResult,
      finalizedBlockNumber: integerResult,
    }),
  ),
});

/** A slash payload of a round and its votes (4.1.2 SlashPayloadRound). */
export const slashPayloadRoundResult = objectResult('SlashPayloadRound', {
  address: stringResult,
  timestamp: stringResult,
  votes: stringResult,
  round: stringResult,
  slashes: arrayResult(
    objectResult('ValidatorSlash', {
      validator: stringResult,
      amount: stringResult,
      offenses: arrayResult(
        objectResult('ValidatorSlashOffense', { offenseType: integerResult, epochOrSlot: stringResult }),
      ),
    }),
  ),
});

export const ADMIN_METHODS = {
  nodeAdmin_getConfig: defineMethod({
    summary: 'The runtime-settable configuration.',
    params: [],
    result: recordResult('NodeAdminConfig', jsonValueResult),
    compat: {
      aztec: 'differs',
      note:
        'only the keys this node has, with 4.1.2 types; 4.1.2 also returns prover, HA-signer and validator keys its ' +
        'client requires (docs/compatibility.md)',
    },
  }),
  nodeAdmin_setConfig: defineMethod({
    summary: 'Changes runtime-settable configuration keys.',
    params: [required('config', jsonObject('NodeAdminConfig'), 'A partial NodeAdminConfig.')],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_pauseSync: defineMethod({
    summary: 'Pauses block sync and world state updates.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_resumeSync: defineMethod({
    summary: 'Resumes block sync and world state updates.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_rollbackTo: defineMethod({
    summary: 'Rolls the chain back to a block; below finalized only with force.',
    params: [
      required('targetBlockNumber', integer(0, MAX_BLOCK), 'Block to roll back to.'),
      optional('force', boolean, 'Clear world state and pool data if needed.'),
    ],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_startSnapshotUpload: defineMethod({
    summary: 'Starts uploading a snapshot of the database to a location.',
    params: [required('location', nonEmptyString, 'Upload location URL.')],
    result: voidResult,
    compat: SAME,
  }),
  nodeAdmin_getSlashPayloads: defineMethod({
    summary: 'Slash payloads monitored in the current round.',
    params: [],
    result: arrayResult(slashPayloadRoundResult),
    compat: SAME,
  }),
  nodeAdmin_getSlashOffenses: defineMethod({
    summary: 'Offenses of a round, of the current round, or all pending.',
    params: [required('round', slashRound, 'A round number (decimal string), "all" or "current".')],
    result: arrayResult(offenseResult),
    compat: {
      aztec: 'differs',
      note: '4.1.2 cannot take a numeric round over JSON (its schema needs a bigint); we accept a decimal string',
    },
  }),
  nodeAdmin_getPeers: defineMethod({
    summary:
      'The connected P2P peers: id, direction, address, application and gossipsub scores, and the status each gave in its handshake.',
    params: [],
    result: arrayResult(peerResult),
    compat: {
      aztec: 'absent',
      note: "4.1.2 serves its peers on the P2P API (getPeers), not on the node's admin interface; same facts, our shape",
    },
  }),
  nodeAdmin_reloadKeystore: defineMethod({
    summary: 'Reloads validator keys from the keystore without a restart; rejected when validation fails.',
    params: [],
    result: voidResult,
    compat: SAME,
  }),
};
