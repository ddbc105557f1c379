/**
 * The official Aztec 4.1.2 wallet stack (aztec.js node client, PXE with fake proofs, EmbeddedWallet) pointed at
 * a spawned l2node, for end-to-end tests that use the node exactly as an Aztec developer does.
 *
 * On machines whose libstdc++ is older than `@aztec/native` needs (Debian 12), the package entries that load it
 * (`@aztec/wallets/embedded`, `@aztec/pxe/server`) cannot be imported. The wallet is therefore assembled from
 * parts that do not: `createPXE` of `@aztec/pxe/client/bundle` over the LMDB store of `@aztec/kv-store/lmdb`, and
 * `EmbeddedWallet`, `WalletDB` and `BundleAccountContractsProvider` imported by file path (the package's exports
 * map hides them). bb.js is pinned to WebAssembly first (initAztecOracle), and `BarretenbergSync` too, which
 * the account contracts' signing uses.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import type { AztecNode } from '@aztec/aztec.js/node';
import type { Wallet } from '@aztec/aztec.js/wallet';
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { initAztecOracle } from './aztec-oracle.js';
import { REPO_ROOT } from './spawn-node.js';

/** The three Schnorr test accounts of `getInitialTestAccountsData()` (`@aztec/accounts/testing`). */
export interface TestAccount {
  readonly address: AztecAddress;
  readonly secret: unknown;
  readonly salt: unknown;
  readonly signingKey: unknown;
}

/** The subset of EmbeddedWallet the tests use (the class is imported by path, so it has no static type here). */
export interface OfficialWallet extends Wallet {
  createSchnorrAccount(
    secret: unknown,
    salt: unknown,
    signingKey?: unknown,
    alias?: string,
  ): Promise<AccountManagerLike>;
  stop(): Promise<void>;
}

export interface AccountManagerLike {
  readonly address: AztecAddress;
  getDeployMethod(): Promise<{
    send(options: { from: AztecAddress; fee?: { paymentMethod: unknown } }): Promise<unknown>;
  }>;
}

export interface WalletSession {
  readonly node: AztecNode;
  readonly wallet: OfficialWallet;
  /** The official test accounts, registered in the wallet (not yet deployed). */
  readonly accounts: readonly TestAccount[];
  stop(): Promise<void>;
}

const WALLETS_EMBEDDED = join(REPO_ROOT, 'node_modules/@aztec/wallets/dest/embedded');

function importByPath(file: string): Promise<Record<string, unknown>> {
  return import(pathToFileURL(join(WALLETS_EMBEDDED, file)).href) as Promise<Record<string, unknown>>;
}

/** Builds the wallet against `nodeUrl` and registers the official test accounts in it. */
export async function openOfficialWallet(nodeUrl: string): Promise<WalletSession> {
  await initWasmBackends();
  const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
  const { createPXE } = await import('@aztec/pxe/client/bundle');
  const { getPXEConfig } = await import('@aztec/pxe/config');
  const { openTmpStore } = await import('@aztec/kv-store/lmdb');
  const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
  const { EmbeddedWallet } = await importByPath('embedded_wallet.js');
  const { WalletDB } = await importByPath('wallet_db.js');
  const { BundleAccountContractsProvider } = await importByPath('account-contract-providers/bundle.js');

  const node = createAztecNodeClient(nodeUrl);
  const pxe = await createPXE(
    node,
    { ...getPXEConfig(), proverEnabled: false, l1Contracts: await node.getL1ContractAddresses() },
    { store: await openTmpStore(true) },
  );
  const walletDb = (WalletDB as { init(store: unknown, log: () => void): unknown }).init(
    await openTmpStore(true),
    () => {},
  );
  const Wallet = EmbeddedWallet as new (...args: unknown[]) => OfficialWallet;
  const Provider = BundleAccountContractsProvider as new () => unknown;
  const wallet = new Wallet(pxe, node, walletDb, new Provider());
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

let wasm: Promise<void> | undefined;
function initWasmBackends(): Promise<void> {
  wasm ??= (async () => {
    await initAztecOracle();
    await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
  })();
  return wasm;
}
