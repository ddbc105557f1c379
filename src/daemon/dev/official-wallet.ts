/**
 * The official Aztec 4.1.2 wallet stack (aztec.js node client, PXE with fake proofs, EmbeddedWallet) pointed at a
 * node, as 4.1.2's local network builds it to set itself up. Loaded only by the local network set-up's child
 * process (local-network-setup-process.ts) and by tests: the daemon never imports it.
 *
 * On machines whose libstdc++ is older than `@aztec/native` needs (Debian 12), the package entries that load it
 * (`@aztec/wallets/embedded`, `@aztec/pxe/server`) cannot be imported. The wallet is therefore assembled from
 * parts that do not: `createPXE` of `@aztec/pxe/client/bundle` over the LMDB store of `@aztec/kv-store/lmdb`, and
 * `EmbeddedWallet`, `WalletDB` and `BundleAccountContractsProvider` imported by file path (the package's exports
 * map hides them). bb.js is pinned to WebAssembly, and its proving parameters (SRS) are never loaded: with fake
 * proofs the wallet only hashes and signs, and a download would make a start depend on the network.
 */
import type { AztecAddress } from '@aztec/aztec.js/addresses';
import type { AztecNode } from '@aztec/aztec.js/node';
import type { Wallet } from '@aztec/aztec.js/wallet';

/** The part of EmbeddedWallet used here and in the tests (the class is imported by path: no static type). */
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
    send(options: {
      from: AztecAddress;
      skipClassPublication?: boolean;
      fee?: { paymentMethod: unknown };
    }): Promise<unknown>;
  }>;
}

let backends: Promise<void> | undefined;

/** bb.js on WebAssembly, without its proving parameters (see above); once per process. */
export function initWasmBackends(): Promise<void> {
  backends ??= (async () => {
    const { BackendType, Barretenberg, BarretenbergSync } = await import('@aztec/bb.js');
    Barretenberg.prototype.initSRSChonk = async () => {};
    await Barretenberg.initSingleton({ backend: BackendType.Wasm });
    await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
  })();
  return backends;
}

/** Which of the node's chain tips the wallet's PXE anchors its txs to (4.1.2's `syncChainTip`). */
export type WalletChainTip = 'proposed' | 'checkpointed' | 'proven' | 'finalized';

/**
 * A wallet with a fresh temporary store on `nodeUrl`, and the node client it uses. It anchors to the proposed
 * chain (4.1.2's default) unless told otherwise: on an L1, a proposed block can be pruned when its checkpoint
 * misses its slot, and a tx proved against it then fails.
 */
export async function openOfficialWallet(
  nodeUrl: string,
  syncChainTip: WalletChainTip = 'proposed',
): Promise<{ node: AztecNode; wallet: OfficialWallet }> {
  await initWasmBackends();
  const { createAztecNodeClient } = await import('@aztec/aztec.js/node');
  const { createPXE } = await import('@aztec/pxe/client/bundle');
  const { getPXEConfig } = await import('@aztec/pxe/config');
  const { openTmpStore } = await import('@aztec/kv-store/lmdb');
  const { EmbeddedWallet } = await importEmbedded('embedded_wallet.js');
  const { WalletDB } = await importEmbedded('wallet_db.js');
  const { BundleAccountContractsProvider } = await importEmbedded('account-contract-providers/bundle.js');

  const node = createAztecNodeClient(nodeUrl);
  const pxe = await createPXE(
    node,
    { ...getPXEConfig(), proverEnabled: false, syncChainTip, l1Contracts: await node.getL1ContractAddresses() },
    { store: await openTmpStore(true) },
  );
  const walletDb = (WalletDB as { init(store: unknown, log: () => void): unknown }).init(
    await openTmpStore(true),
    () => {},
  );
  const Embedded = EmbeddedWallet as new (...args: unknown[]) => OfficialWallet;
  const Provider = BundleAccountContractsProvider as new () => unknown;
  return { node, wallet: new Embedded(pxe, node, walletDb, new Provider()) };
}

/** A module of `@aztec/wallets/dest/embedded`, wherever the package is installed. */
function importEmbedded(file: string): Promise<Record<string, unknown>> {
  // `./testing` is the one exported entry beside `dest/embedded/`.
  const url = new URL(`embedded/${file}`, import.meta.resolve('@aztec/wallets/testing'));
  return import(url.href) as Promise<Record<string, unknown>>;
}
