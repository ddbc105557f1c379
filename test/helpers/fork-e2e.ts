/**
 * Shared set-up of the `--fork-url` e2e files: an upstream dev node with a Token deployed and balances moved by
 * the official 4.1.2 wallet, calls to a node's public and dev methods, and the bit-exact check of a fork's new
 * blocks by a full world state holding the upstream's whole state.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import { expect } from 'vitest';
import { worldStateInput } from '../../src/daemon/chain/apply-block.js';
import { resolveConfig } from '../../src/daemon/config/resolve-config.js';
import { genesisPublicData } from '../../src/daemon/sequencer/genesis-funding.js';
import { openNodeDatabase } from '../../src/daemon/store/node-database.js';
import { RpcUpstream } from '../../src/daemon/sync/rpc-upstream.js';
import { WorldState } from '../../src/daemon/world-state/world-state.js';
import { deployAccount, openOfficialWallet, type WalletSession } from './official-wallet.js';
import { postJson, type RunningNode, rpc, spawnNode } from './spawn-node.js';

/** A public method's result; an error answer throws its message. */
export async function pub<T>(on: RunningNode, method: string, params: unknown[] = []): Promise<T> {
  const r = await postJson(on.publicUrl, rpc(method, params));
  const body = r.body as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/** A dev (admin) method's answer. */
export async function dev<T>(
  on: RunningNode,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: T; error?: { message: string } }> {
  const r = await postJson(
    on.adminUrl,
    { jsonrpc: '2.0', id: 1, method, params },
    { 'x-api-key': on.adminKey as string },
  );
  return r.body as { result?: T; error?: { message: string } };
}

export const slot = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;

/** An upstream dev node where alice deployed a Token, minted 1000 publicly and moved 100 to bob. */
export interface TokenUpstream {
  readonly node: RunningNode;
  readonly session: WalletSession;
  readonly alice: AztecAddress;
  readonly bob: AztecAddress;
  readonly tokenAddress: AztecAddress;
  readonly mintTxHash: string;
  /** Its latest block once the Token moved. */
  readonly n: number;
  stop(): Promise<void>;
}

/** alice's and bob's public Token balances, read through `s`. */
export async function publicBalances(up: TokenUpstream, s: WalletSession): Promise<[bigint, bigint]> {
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const token = TokenContract.at(up.tokenAddress, s.wallet);
  const of = async (who: AztecAddress) =>
    (await token.methods.balance_of_public(who).simulate({ from: up.alice })).result as bigint;
  return [await of(up.alice), await of(up.bob)];
}

/** Starts the upstream: `emptyBlocks` empty blocks first (so that older fork blocks exist), then the Token. */
export async function startTokenUpstream(o: { emptyBlocks?: number; args?: string[] } = {}): Promise<TokenUpstream> {
  const node = await spawnNode({ args: o.args ?? [] });
  if (o.emptyBlocks) await dev(node, 'nodeDev_mineBlocks', [o.emptyBlocks]);
  const session = await openOfficialWallet(node.publicUrl);
  await deployAccount(session, session.accounts[0]);
  const alice = session.accounts[0]?.address as AztecAddress;
  const bob = session.accounts[1]?.address as AztecAddress;
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const { contract: token } = await TokenContract.deploy(session.wallet, alice, 'Forked', 'FK', 18).send({
    from: alice,
  });
  const { receipt: minted } = await token.methods.mint_to_public(alice, 1000n).send({ from: alice });
  await token.methods.transfer_in_public(alice, bob, 100n, 0n).send({ from: alice });
  const up: TokenUpstream = {
    node,
    session,
    alice,
    bob,
    tokenAddress: token.address,
    mintTxHash: minted.txHash.toString(),
    n: await pub<number>(node, 'node_getBlockNumber'),
    stop: async () => {
      await session.stop();
      await node.stop();
    },
  };
  expect(await publicBalances(up, session)).toEqual([900n, 100n]);
  return up;
}

/** Opens a wallet on a fork of `up` that knows the Token (its instance as the fork serves it). */
export async function openForkWallet(up: TokenUpstream, fork: RunningNode): Promise<WalletSession> {
  const s = await openOfficialWallet(fork.publicUrl);
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const instance = await s.node.getContract(up.tokenAddress);
  if (!instance) throw new Error('the fork does not serve the Token instance');
  await s.wallet.registerContract(instance, TokenContract.artifact);
  return s;
}

/**
 * The fork's blocks after `n` applied by a full world state holding the upstream's whole state (its blocks 1 to
 * `n` applied from genesis first): applyBlock refuses a block whose computed state or archive differs from its
 * header's, so every root of every block is checked bit for bit.
 */
export async function expectForkRootsBitExact(upstream: RunningNode, fork: RunningNode, n: number): Promise<void> {
  const tip = await pub<number>(fork, 'node_getBlockNumber');
  expect(tip).toBeGreaterThan(n);
  const full = WorldState.open(openNodeDatabase(null), {
    genesisPublicData: genesisPublicData(resolveConfig({}, {}).config),
  });
  const limit = 64 << 20;
  const theirs = new RpcUpstream({ url: upstream.publicUrl, maxResponseSize: limit });
  const ours = new RpcUpstream({ url: fork.publicUrl, maxResponseSize: limit });
  /** Blocks `from` to `to` of `node`, in as many calls as its per-call limit takes. */
  const range = async (node: RpcUpstream, from: number, to: number) => {
    const out = [];
    while (from + out.length <= to) {
      const got = await node.blocks(from + out.length, to - from - out.length + 1);
      if (got.length === 0) throw new Error(`no block ${from + out.length} from ${node.url}`);
      out.push(...got);
    }
    return out;
  };
  const blocks = [...(await range(theirs, 1, n)), ...(await range(ours, n + 1, tip))];
  expect(blocks.map((b) => b.number)).toEqual(Array.from({ length: tip }, (_, i) => i + 1));
  for (const b of blocks) {
    const from = b.number <= n ? theirs : ours;
    const messages = b.indexWithinCheckpoint === 0 ? ((await from.l1ToL2Messages(b.checkpointNumber)) ?? []) : [];
    full.applyBlock(worldStateInput(b, messages, (await from.stateOverrides(b.number)) ?? []));
    expect(full.getArchiveSnapshot().equals(b.archive)).toBe(true);
  }
}
