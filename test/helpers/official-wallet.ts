/**
 * The official Aztec 4.1.2 wallet stack (aztec.js node client, PXE with fake proofs, EmbeddedWallet) pointed at
 * a spawned l2node, for end-to-end tests that use the node exactly as an Aztec developer does. The wallet is
 * the one the node's local network set-up uses (src/daemon/dev/official-wallet.ts: assembled from parts that do
 * not load `@aztec/native`, bb.js on WebAssembly).
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import type { AztecNode } from '@aztec/aztec.js/node';
import {
  type AccountManagerLike,
  type OfficialWallet,
  openOfficialWallet as openWallet,
  type WalletChainTip,
} from '../../src/daemon/dev/official-wallet.js';

export type { AccountManagerLike, OfficialWallet };

/** The three Schnorr test accounts of `getInitialTestAccountsData()` (`@aztec/accounts/testing`). */
export interface TestAccount {
  readonly address: AztecAddress;
  readonly secret: unknown;
  readonly salt: unknown;
  readonly signingKey: unknown;
}

export interface WalletSession {
  readonly node: AztecNode;
  readonly wallet: OfficialWallet;
  /** The official test accounts, registered in the wallet (not yet deployed). */
  readonly accounts: readonly TestAccount[];
  stop(): Promise<void>;
}

/**
 * Builds the wallet against `nodeUrl` and registers the official test accounts in it; `syncChainTip` is the tip
 * its PXE anchors to (the proposed chain unless told).
 */
export async function openOfficialWallet(nodeUrl: string, syncChainTip?: WalletChainTip): Promise<WalletSession> {
  const { node, wallet } = await openWallet(nodeUrl, syncChainTip);
  const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
  const accounts: TestAccount[] = [];
  for (const a of await getInitialTestAccountsData()) {
    const manager = await wallet.createSchnorrAccount(a.secret, a.salt, a.signingKey);
    accounts.push({ address: manager.address, secret: a.secret, salt: a.salt, signingKey: a.signingKey });
  }
  return { node, wallet, accounts, stop: () => wallet.stop() };
}

/**
 * Deploys a registered account contract through the wallet, paying with the account's own FeeJuice or, given a
 * fee payment method (aztec.js's `SponsoredFeePaymentMethod`), through it.
 */
export async function deployAccount(
  session: WalletSession,
  account: TestAccount,
  paymentMethod?: unknown,
): Promise<void> {
  const manager = await session.wallet.createSchnorrAccount(account.secret, account.salt, account.signingKey);
  const deploy = await manager.getDeployMethod();
  const { AztecAddress } = await import('@aztec/aztec.js/addresses');
  await deploy.send({ from: AztecAddress.ZERO, ...(paymentMethod ? { fee: { paymentMethod } } : {}) });
}
