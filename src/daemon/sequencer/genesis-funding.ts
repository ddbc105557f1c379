import type { AztecAddress } from '../../core/aztec-address.js';
import { BANANA_FPC_ADDRESS } from '../../core/contract/banana-fpc.js';
import { SPONSORED_FPC } from '../../core/contract/sponsored-fpc.js';
import type { ChainStore } from '../store/chain-store.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';
import {
  DEFAULT_PREFUNDED_AMOUNT,
  defaultPrefundedAccounts,
  type PrefundedAccount,
  prefundedGenesisData,
} from './prefunded-accounts.js';
import type { SequencerConfig } from './sequencer-settings.js';

/** The settings that decide a chain's genesis state. */
export type GenesisConfig = Readonly<Pick<SequencerConfig, 'prefundedAccounts' | 'sponsoredFPC'>>;

/** The sponsored FPC's address when the chain has it at genesis. */
export function sponsoredFpcAddress(config: GenesisConfig): AztecAddress | undefined {
  return config.sponsoredFPC ? SPONSORED_FPC.address : undefined;
}

/**
 * The BananaFPC when the chain has it at genesis: with the default accounts, as 4.1.2's local network funds it
 * whenever it sets up its test accounts. An explicit `--prefunded-accounts` list leaves it out (list it there to
 * fund it anyway).
 */
export function bananaFpcAddress(config: GenesisConfig): AztecAddress | undefined {
  return config.prefundedAccounts === undefined ? BANANA_FPC_ADDRESS : undefined;
}

/**
 * Everything holding FeeJuice at genesis, as 4.1.2's local network funds it: the prefunded accounts, the
 * BananaFPC (with the default accounts), then the sponsored FPC, each FPC with 10^22. An explicit
 * `--prefunded-accounts` entry for an FPC's address sets its amount. The order does not change the genesis
 * state: the prefilled leaves are sorted by slot.
 */
export function genesisFundedAccounts(config: GenesisConfig): PrefundedAccount[] {
  const accounts = [...(config.prefundedAccounts ?? defaultPrefundedAccounts())];
  for (const fpc of [bananaFpcAddress(config), sponsoredFpcAddress(config)]) {
    if (fpc && !accounts.some((a) => a.address.value === fpc.value)) {
      accounts.push({ address: fpc, amount: DEFAULT_PREFUNDED_AMOUNT });
    }
  }
  return accounts;
}

/** The genesis public data the settings give (what the genesis block's public data tree holds). */
export function genesisPublicData(config: GenesisConfig): GenesisPublicData[] {
  return prefundedGenesisData(genesisFundedAccounts(config));
}

/** The FeeJuice the genesis state holds in all (what an L1 deployment puts in the fee juice portal for it). */
export function genesisFeeJuice(config: GenesisConfig): bigint {
  return genesisFundedAccounts(config).reduce((sum, a) => sum + a.amount, 0n);
}

/**
 * Records the sponsored FPC's class and instance as present from block 0, so `node_getContract` and
 * `node_getContractClass` answer them as for a published contract (a wallet can register it from the node).
 * Nothing enters the trees: 4.1.2's local network publishes neither, and its genesis roots stay ours.
 */
export function recordGenesisContracts(store: ChainStore, config: GenesisConfig): void {
  if (!config.sponsoredFPC) return;
  store.db.transaction(() => {
    store.contractClasses.insert(SPONSORED_FPC.contractClass, 0);
    store.contractInstances.insert(SPONSORED_FPC.instance, 0);
  })();
}
