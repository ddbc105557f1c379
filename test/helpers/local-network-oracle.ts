/**
 * 4.1.2's local network genesis, computed with the published packages as an oracle: the addresses of its
 * BananaCoin and BananaFPC (as `getBananaCoinAddress`/`getBananaFPCAddress` of `@aztec/aztec` compute them), the
 * SponsoredFPC's, and the public data root of its block 0 (the test accounts and both FPCs funded with 10^22), built
 * with `@aztec/merkle-tree`'s indexed tree: the unfunded padding leaves, then the funded balances appended sorted by
 * slot, as the native world state prefills the genesis tree (`getGenesisValues` of `@aztec/world-state` loads
 * `@aztec/native`, which this machine cannot).
 */
import { initAztecOracle } from './aztec-oracle.js';

export interface LocalNetworkGenesis {
  readonly bananaCoin: string;
  readonly bananaFpc: string;
  readonly sponsoredFpc: string;
  readonly publicDataRoot: string;
}

const FEE_JUICE_AT_GENESIS = 10n ** 22n;
const GENESIS_PUBLIC_DATA_LEAVES = 128;
const PUBLIC_DATA_TREE_HEIGHT = 40;

export async function localNetworkGenesis(): Promise<LocalNetworkGenesis> {
  await initAztecOracle();
  const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
  const { Fr } = await import('@aztec/aztec.js/fields');
  const { getContractInstanceFromInstantiationParams } = await import('@aztec/stdlib/contract');
  const { TokenContract } = await import('@aztec/noir-contracts.js/Token');
  const { FPCContract } = await import('@aztec/noir-contracts.js/FPC');
  const { SponsoredFPCContract } = await import('@aztec/noir-contracts.js/SponsoredFPC');
  const { SPONSORED_FPC_SALT } = await import('@aztec/constants');
  const { computeFeePayerBalanceLeafSlot } = await import('@aztec/protocol-contracts/fee-juice');
  const { StandardIndexedTreeWithAppend, Poseidon } = await import('@aztec/merkle-tree');
  const { openTmpStore } = await import('@aztec/kv-store/lmdb');
  const { PublicDataTreeLeaf, PublicDataTreeLeafPreimage } = await import('@aztec/stdlib/trees');

  const accounts = await getInitialTestAccountsData();
  const admin = accounts[0]!.address;
  const coin = await getContractInstanceFromInstantiationParams(TokenContract.artifact, {
    constructorArgs: [admin, 'BC', 'BC', 18n],
    salt: new Fr(0),
  });
  const fpc = await getContractInstanceFromInstantiationParams(FPCContract.artifact, {
    constructorArgs: [coin.address, admin],
    salt: new Fr(0),
  });
  const sponsored = await getContractInstanceFromInstantiationParams(SponsoredFPCContract.artifact, {
    salt: new Fr(SPONSORED_FPC_SALT),
  });
  const funded = [...accounts.map((a) => a.address), fpc.address, sponsored.address];
  const slots = await Promise.all(funded.map((a) => computeFeePayerBalanceLeafSlot(a)));
  const leaves = slots
    .map((slot) => new PublicDataTreeLeaf(slot, new Fr(FEE_JUICE_AT_GENESIS)))
    .sort((a, b) => (a.slot.toBigInt() < b.slot.toBigInt() ? -1 : 1));
  const tree = new StandardIndexedTreeWithAppend(
    await openTmpStore(true),
    new Poseidon(),
    'public_data',
    PUBLIC_DATA_TREE_HEIGHT,
    0n,
    PublicDataTreeLeafPreimage,
    PublicDataTreeLeaf,
  );
  await tree.init(GENESIS_PUBLIC_DATA_LEAVES - leaves.length);
  await tree.appendLeaves(leaves.map((l) => l.toBuffer()));
  return {
    bananaCoin: coin.address.toString(),
    bananaFpc: fpc.address.toString(),
    sponsoredFpc: sponsored.address.toString(),
    publicDataRoot: new Fr(tree.getRoot(true)).toString(),
  };
}
