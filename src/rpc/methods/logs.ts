import {
  getContractClassLogsResponseFromJSON,
  getContractClassLogsResponseToJSON,
  getPublicLogsResponseFromJSON,
  getPublicLogsResponseToJSON,
} from '../../core/logs/get-logs-response.js';
import { PrivateLog } from '../../core/logs/private-log.js';
import { TxScopedL2Log } from '../../core/logs/tx-scoped-l2-log.js';
import { arrayResult, classResult, jsonResult } from '../result-codecs.js';
import { defaulted, defineMethod, optional, required } from '../rpc-method.js';
import { arrayOf, aztecAddress, blockHash, field, integer, objectOf, txHash } from '../wire-types.js';
import { MAX_BLOCK, SAME } from './shared-params.js';

/** Log queries: private logs by block, public and contract class logs by filter, logs by tag. */

const logId = objectOf(
  'LogId',
  {
    blockNumber: integer(0, MAX_BLOCK),
    blockHash,
    txHash,
    txIndex: integer(0, MAX_BLOCK),
    logIndex: integer(0, MAX_BLOCK),
  },
  {},
);
const logFilter = objectOf(
  'LogFilter',
  {},
  {
    txHash,
    fromBlock: integer(0, MAX_BLOCK),
    toBlock: integer(0, MAX_BLOCK),
    afterLog: logId,
    contractAddress: aztecAddress,
    tag: field,
  },
  // A misspelt key (fromblock) would silently widen the query to every log: refused instead.
  { strict: true },
);

/** One list of logs per tag asked, in the order asked. */
const logsPerTagResult = arrayResult(
  arrayResult(classResult('TxScopedL2Log', (json, path) => TxScopedL2Log.fromJSON(json, path))),
);

export const LOG_METHODS = {
  node_getPrivateLogs: defineMethod({
    summary: 'Private logs of `limit` blocks from `from`.',
    params: [
      required('from', integer(1, MAX_BLOCK), 'First block number (>= 1).'),
      required('limit', integer(1, 1000), 'Number of blocks (1 to 1000).'),
    ],
    result: arrayResult(classResult('PrivateLog', (json, path) => PrivateLog.fromJSON(json, path))),
    compat: { aztec: 'absent', note: 'removed in 4.0 (2.x and 3.x only)' },
  }),
  node_getPublicLogs: defineMethod({
    summary: 'Public logs matching a filter, paged (maxLogsHit says there are more).',
    params: [required('filter', logFilter, 'LogFilter: txHash, fromBlock, toBlock, afterLog, contractAddress, tag.')],
    result: jsonResult('GetPublicLogsResponse', getPublicLogsResponseToJSON, getPublicLogsResponseFromJSON),
    compat: SAME,
  }),
  node_getContractClassLogs: defineMethod({
    summary: 'Contract class logs matching a filter, paged.',
    params: [required('filter', logFilter, 'LogFilter (tag is ignored).')],
    result: jsonResult(
      'GetContractClassLogsResponse',
      getContractClassLogsResponseToJSON,
      getContractClassLogsResponseFromJSON,
    ),
    compat: SAME,
  }),
  node_getLogsByTags: defineMethod({
    summary: 'Logs carrying each tag: one array per tag, in order.',
    params: [
      required('tags', arrayOf(field, 1000), 'Tags (at most 1000).'),
      defaulted('logsPerTag', integer(1, 10), 10, 'Logs per tag (1 to 10, default 10).'),
    ],
    result: logsPerTagResult,
    compat: {
      aztec: 'absent',
      note: 'removed in 4.0; replaced by getPrivateLogsByTags and getPublicLogsByTagsFromContract',
    },
  }),

  node_getPrivateLogsByTags: defineMethod({
    summary: 'Private logs carrying each (siloed) tag, 10 per tag and page, in chain order.',
    params: [
      required('tags', arrayOf(field, 100), 'Siloed tags (at most 100).'),
      optional('page', integer(0, MAX_BLOCK), 'Page number from 0 (10 logs per tag per page).'),
      optional('referenceBlock', blockHash, 'Fails when this block is not on the chain (a reorg happened).'),
    ],
    result: logsPerTagResult,
    compat: SAME,
  }),
  node_getPublicLogsByTagsFromContract: defineMethod({
    summary: 'Public logs of a contract carrying each tag, 10 per tag and page, in chain order.',
    params: [
      required('contractAddress', aztecAddress, 'The emitting contract.'),
      required('tags', arrayOf(field, 100), 'Tags (at most 100).'),
      optional('page', integer(0, MAX_BLOCK), 'Page number from 0 (10 logs per tag per page).'),
      optional('referenceBlock', blockHash, 'Fails when this block is not on the chain (a reorg happened).'),
    ],
    result: logsPerTagResult,
    compat: SAME,
  }),
};
