import { pbkdf2Sync } from 'node:crypto';
import { HDKey, hdKeyToAccount } from 'viem/accounts';

/** anvil's default mnemonic: its accounts are the same on every anvil, as on Aztec's local network. */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
/** How many accounts anvil funds (10,000 ETH each). */
const ANVIL_ACCOUNT_COUNT = 10;

/** An account anvil funds at genesis, with its key (public knowledge: anvil's test mnemonic). */
export interface AnvilAccount {
  readonly address: string;
  readonly privateKey: string;
}

/** The accounts anvil funds at genesis (m/44'/60'/0'/0/i of its test mnemonic), as anvil lists them at start. */
export function anvilAccounts(): readonly AnvilAccount[] {
  // BIP-39's seed of a mnemonic without passphrase.
  const seed = pbkdf2Sync(ANVIL_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: ANVIL_ACCOUNT_COUNT }, (_, i) => {
    const account = hdKeyToAccount(root, { addressIndex: i });
    const key = account.getHdKey().privateKey as Uint8Array;
    return { address: account.address.toLowerCase(), privateKey: `0x${Buffer.from(key).toString('hex')}` };
  });
}
