import { describe, expect, expectTypeOf, it } from 'vitest';
import { BlockHash } from '../../src/core/block-hash.js';
import type { BlockParameter } from '../../src/core/block-parameter.js';
import type { Fr } from '../../src/core/fr.js';
import type { TxHash } from '../../src/core/tx-hash.js';
import { RpcClient } from '../../src/rpc/client/rpc-client.js';
import { RPC_METHODS } from '../../src/rpc/method-table.js';
import type { RpcHandlers } from '../../src/rpc/rpc-handlers.js';
import type { RpcMethod } from '../../src/rpc/rpc-method.js';

/** Every method of spec part 4, by listener: the table is the checklist. */
const SPEC_PUBLIC = [
  'getBlockNumber',
  'getProvenBlockNumber',
  'getL2Tips',
  'getBlock',
  'getBlocks',
  'getBlockHeader',
  'sendTx',
  'getTxReceipt',
  'getTxEffect',
  'getTxByHash',
  'getPendingTxs',
  'getPendingTxCount',
  'isValidTx',
  'simulatePublicCalls',
  'getPublicStorageAt',
  'getWorldStateSyncStatus',
  'findLeavesIndexes',
  'getNullifierSiblingPath',
  'getNoteHashSiblingPath',
  'getArchiveSiblingPath',
  'getPublicDataSiblingPath',
  'getNullifierMembershipWitness',
  'getLowNullifierMembershipWitness',
  'getPublicDataWitness',
  'getBlockHashMembershipWitness',
  'getNoteHashMembershipWitness',
  'getL1ToL2MessageMembershipWitness',
  'getL1ToL2MessageBlock',
  'isL1ToL2MessageSynced',
  'getL2ToL1Messages',
  'getPrivateLogs',
  'getPublicLogs',
  'getContractClassLogs',
  'getLogsByTags',
  'getContractClass',
  'getContract',
  'isReady',
  'getNodeInfo',
  'getNodeVersion',
  'getVersion',
  'getChainId',
  'getL1ContractAddresses',
  'getProtocolContractAddresses',
  'getEncodedEnr',
  'getCurrentMinFees',
  'getValidatorsStats',
  'getValidatorStats',
  'registerContractFunctionSignatures',
  'getAllowedPublicSetup',
].map((m) => `node_${m}`);
const SPEC_ADMIN = [
  'getConfig',
  'setConfig',
  'pauseSync',
  'resumeSync',
  'rollbackTo',
  'startSnapshotUpload',
  'getSlashPayloads',
  'getSlashOffenses',
  'reloadKeystore',
].map((m) => `nodeAdmin_${m}`);

/** Methods beyond the spec: 4.1.2's (so the current official client works in full) and dev-mode controls. */
const BEYOND_SPEC = [
  ...[
    'getBlockByHash',
    'getBlockByArchive',
    'getBlockHeaderByArchive',
    'getCheckpointNumber',
    'getCheckpointedBlockNumber',
    'getCheckpoints',
    'getCheckpointedBlocks',
    'getL1ToL2MessageCheckpoint',
    'getL1ToL2Messages',
    'getStateOverrides',
    'getPrivateLogsByTags',
    'getPublicLogsByTagsFromContract',
    'getTxsByHash',
    'getMaxPriorityFees',
  ].map((m) => `node_${m}`),
  'nodeDev_sendL1ToL2Message',
  'nodeDev_mineBlocks',
  'nodeDev_increaseTime',
  'nodeDev_setNextBlockTimestamp',
  'nodeDev_snapshot',
  'nodeDev_revert',
  'nodeAdmin_getPeers',
  'nodeDev_setPublicStorage',
  'nodeDev_setFeeJuiceBalance',
  'nodeDev_traceTx',
  'nodeDev_traceCall',
];

const methods = Object.values(RPC_METHODS) as RpcMethod[];

describe('the method table', () => {
  it('declares exactly the methods of spec part 4 and the ones beyond it, each once', () => {
    expect(Object.keys(RPC_METHODS).sort()).toEqual([...SPEC_PUBLIC, ...SPEC_ADMIN, ...BEYOND_SPEC].sort());
  });

  it('binds each namespace to its listener', () => {
    for (const m of methods) {
      const admin = m.name.startsWith('nodeAdmin_') || m.name.startsWith('nodeDev_');
      expect(m.listener).toBe(admin ? 'admin' : 'public');
    }
  });

  it('documents every method, param and result, and explains every difference from 4.1.2', () => {
    for (const m of methods) {
      expect(m.summary.length).toBeGreaterThan(10);
      expect(m.result.type.length).toBeGreaterThan(0);
      for (const p of m.params) {
        expect(p.description.length, `${m.name} ${p.name}`).toBeGreaterThan(5);
        expect(p.wire.type.length).toBeGreaterThan(0);
      }
      if (m.compat.aztec !== 'same') expect(m.compat.note.length).toBeGreaterThan(10);
    }
  });

  it('keeps optional params after the required ones (trailing optionals may be omitted)', () => {
    for (const m of methods) {
      const firstOptional = m.params.findIndex((p) => p.presence !== 'required');
      if (firstOptional === -1) continue;
      expect(
        m.params.slice(firstOptional).every((p) => p.presence !== 'required'),
        m.name,
      ).toBe(true);
    }
  });

  it('encodes not-found and void as null', () => {
    expect(RPC_METHODS.node_getBlock.result.encode(undefined)).toBeNull();
    expect(RPC_METHODS.node_sendTx.result.encode(undefined)).toBeNull();
    expect(RPC_METHODS.node_getBlock.result.decode(null)).toBeUndefined();
  });

  it('types handlers and client calls from the same rows', () => {
    type Handlers = Required<RpcHandlers>;
    expectTypeOf<Parameters<Handlers['node_getBlock']>>().toEqualTypeOf<[BlockParameter]>();
    expectTypeOf<Parameters<Handlers['node_getPendingTxs']>>().toEqualTypeOf<[number, TxHash | undefined]>();
    expectTypeOf<Parameters<Handlers['node_getPublicStorageAt']>[2]>().toEqualTypeOf<Fr>();
    expectTypeOf<ReturnType<Handlers['node_getBlockNumber']>>().toEqualTypeOf<Promise<number>>();
    const client = new RpcClient({ url: 'http://127.0.0.1:1' });
    expectTypeOf(client.call<'node_getChainId'>).returns.toEqualTypeOf<Promise<number>>();
    expectTypeOf(client.call<'node_getBlocks'>).parameters.toEqualTypeOf<['node_getBlocks', number, number]>();
    expectTypeOf(client.call<'node_getPendingTxs'>).parameters.toEqualTypeOf<
      ['node_getPendingTxs', (number | null)?, (string | null)?]
    >();
    expect(BlockHash).toBeDefined();
  });
});
