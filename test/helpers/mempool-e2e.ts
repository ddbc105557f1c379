/**
 * For the mempool e2e tests: the genesis of a spawned dev node (computed here from the same prefunded
 * accounts, so txs can anchor to it), a tx builder for its chain, and a JSON-RPC call helper.
 */
import type { AztecAddress } from '../../src/core/aztec-address.js';
import { BlockHeader } from '../../src/core/block/block-header.js';
import { TxBuilder } from '../../src/core/tx/tx-builder.js';
import {
  AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
  AZTEC_4_1_2_VK_TREE_ROOT,
} from '../../src/daemon/config/published-chain-values.js';
import { resolveConfig } from '../../src/daemon/config/resolve-config.js';
import { genesisPublicData } from '../../src/daemon/sequencer/genesis-funding.js';
import { openNodeDatabase } from '../../src/daemon/store/node-database.js';
import { WorldState } from '../../src/daemon/world-state/world-state.js';
import { postJson, rpc } from './spawn-node.js';

export interface Funded {
  readonly address: AztecAddress;
  readonly amount: bigint;
}

/** The `--prefunded-accounts` value for these accounts. */
export function prefundedFlag(accounts: readonly Funded[]): string {
  return accounts.length === 0 ? 'none' : accounts.map((a) => `${a.address}:${a.amount}`).join(',');
}

/**
 * The genesis header a node started with `--prefunded-accounts` for these accounts (other genesis settings at
 * their defaults) starts from: what its archive holds at leaf 0.
 */
export function genesisHeader(accounts: readonly Funded[]): BlockHeader {
  return genesisHeaderOf(resolveConfig({ 'prefunded-accounts': prefundedFlag(accounts) }, {}).config);
}

/** The genesis header of a node started without --prefunded-accounts: 4.1.2's local network genesis. */
export function defaultGenesisHeader(): BlockHeader {
  return genesisHeaderOf(resolveConfig({}, {}).config);
}

function genesisHeaderOf(config: ReturnType<typeof resolveConfig>['config']): BlockHeader {
  const db = openNodeDatabase(null);
  try {
    const ws = WorldState.open(db, { genesisPublicData: genesisPublicData(config) });
    return BlockHeader.empty({ state: ws.getInitialStateReference() });
  } finally {
    db.close();
  }
}

/**
 * A builder of txs for the node's chain (4.1.2's published chain values, chain id 31337, rollup version 1 or, on an
 * L1 deployment, the rollup's).
 */
export function devTxBuilder(anchor: BlockHeader, rollupVersion = 1n): TxBuilder {
  return new TxBuilder({
    chainId: 31337n,
    rollupVersion,
    vkTreeRoot: AZTEC_4_1_2_VK_TREE_ROOT,
    protocolContractsHash: AZTEC_4_1_2_PROTOCOL_CONTRACTS_HASH,
    anchorBlockHeader: anchor,
  });
}

export interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> & { code?: string; reasons?: string[] } };
}

/** One JSON-RPC call (with `headers`, e.g. the admin API key); the answer's result or error. */
export async function call(
  url: string,
  method: string,
  params: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const res = await postJson(url, rpc(method, params), headers);
  return res.body as RpcAnswer;
}

/** One JSON-RPC call's result; an error answer throws with the method and its message. */
export async function result<T>(
  url: string,
  method: string,
  params: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<T> {
  const answer = await call(url, method, params, headers);
  if (answer.error) throw new Error(`${method} failed: ${answer.error.message}`);
  return answer.result as T;
}

/**
 * Flags of a pool test node: no sequencer, and simplified fees (no L1 costs, proving cost 1 wei per mana: min
 * fee 100,000 per L2 gas), so fee figures are easy to check.
 */
export function simpleFeePoolFlags(funded: readonly Funded[]): string[] {
  return [
    ...['--sequencer-mode', 'off', '--prefunded-accounts', prefundedFlag(funded)],
    ...['--simulated-l1-base-fee', '0', '--simulated-l1-blob-base-fee', '0', '--proving-cost-per-mana', '1'],
  ];
}
