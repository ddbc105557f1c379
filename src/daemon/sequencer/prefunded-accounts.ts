import { AztecAddress } from '../../core/aztec-address.js';
import { FR_MODULUS } from '../../core/fr.js';
import { computeFeePayerBalanceLeafSlot } from '../../core/hash/siloing.js';
import { TEST_ACCOUNTS } from '../../core/test-accounts.js';
import { SettingParseError } from '../config/setting.js';
import type { GenesisPublicData } from '../world-state/genesis-state.js';

/** An account given FeeJuice at genesis. */
export interface PrefundedAccount {
  readonly address: AztecAddress;
  readonly amount: bigint;
}

/** FeeJuice each prefunded account starts with unless told otherwise (4.1.2's test accounts get 10^22). */
export const DEFAULT_PREFUNDED_AMOUNT = 10n ** 22n;
/** The genesis public data tree holds 128 leaves; prefill takes the last ones. */
const MAX_PREFUNDED = 128;

/**
 * The dev chain's default accounts: Aztec 4.1.2's official test accounts, each with 10^22 FeeJuice as 4.1.2's
 * local network gives them, printed at start with their keys like anvil's banner, so the official wallets
 * deploy and use them with no bridging.
 */
export function defaultPrefundedAccounts(): PrefundedAccount[] {
  return TEST_ACCOUNTS.map((a) => ({ address: a.address, amount: DEFAULT_PREFUNDED_AMOUNT }));
}

/**
 * Parses `--prefunded-accounts`: `none`, or a comma-separated list of `address[:amount]` (amount a decimal
 * integer, default 10^22).
 */
export function parsePrefundedAccounts(raw: string): PrefundedAccount[] {
  const s = raw.trim();
  if (s === 'none') return [];
  if (s === '') throw new SettingParseError('expected "none" or a list of address[:amount], got an empty value');
  const seen = new Set<bigint>();
  const accounts = s.split(',').map((entry, i) => {
    const [addr, amount, extra] = entry.trim().split(':');
    if (extra !== undefined || !addr) {
      throw new SettingParseError(`entry ${i + 1} ("${entry}"): expected address[:amount]`);
    }
    let address: AztecAddress;
    try {
      address = AztecAddress.fromString(addr);
    } catch (err) {
      throw new SettingParseError(`entry ${i + 1}: "${addr}" is not an L2 address (${(err as Error).message})`);
    }
    if (amount !== undefined && !/^[0-9]{1,40}$/.test(amount)) {
      throw new SettingParseError(`entry ${i + 1}: amount "${amount}" is not a decimal integer`);
    }
    const value = amount === undefined ? DEFAULT_PREFUNDED_AMOUNT : BigInt(amount);
    if (value >= FR_MODULUS)
      throw new SettingParseError(`entry ${i + 1}: amount ${value} does not fit a field element`);
    if (seen.has(address.value)) throw new SettingParseError(`entry ${i + 1}: ${address} is listed twice`);
    seen.add(address.value);
    return { address, amount: value };
  });
  if (accounts.length > MAX_PREFUNDED) {
    throw new SettingParseError(
      `at most ${MAX_PREFUNDED} prefunded accounts fit the genesis state, got ${accounts.length}`,
    );
  }
  return accounts;
}

export function formatPrefundedAccounts(accounts: readonly PrefundedAccount[]): string {
  return accounts.length === 0 ? 'none' : accounts.map((a) => `${a.address}:${a.amount}`).join(',');
}

/** Genesis public data: each account's FeeJuice balance at its balance leaf slot (4.1.2 prefilled genesis). */
export function prefundedGenesisData(accounts: readonly PrefundedAccount[]): GenesisPublicData[] {
  return accounts.map((a) => ({ slot: balanceLeafSlot(a.address.value), value: a.amount }));
}

/**
 * The balance leaf slots of the genesis accounts, each hashed once per process: a start asks for the genesis data
 * three times (the genesis image's key, the world state, the public execution workers' settings), and each slot
 * is a Poseidon2 hash (bench/startup). At most MAX_PREFUNDED accounts per genesis, and one genesis per process,
 * bar a few in tests.
 */
const balanceLeafSlots = new Map<bigint, bigint>();

function balanceLeafSlot(address: bigint): bigint {
  let slot = balanceLeafSlots.get(address);
  if (slot === undefined) {
    slot = computeFeePayerBalanceLeafSlot(address);
    if (balanceLeafSlots.size < 4 * MAX_PREFUNDED) balanceLeafSlots.set(address, slot);
  }
  return slot;
}

/**
 * The start-up banner listing the accounts and their balances; an official test account also shows its keys and
 * how aztec.js uses it (anvil prints its accounts' private keys the same way: they are public test keys). Then
 * the sponsored FPC, when the chain has it, with how aztec.js pays through it.
 */
export function prefundedAccountsBanner(
  accounts: readonly PrefundedAccount[],
  sponsoredFpc: AztecAddress | undefined,
  bananaFpc?: AztecAddress,
): string {
  // An explicit --prefunded-accounts entry for the FPC sets its amount (genesis-funding.ts).
  const fpcAmount = accounts.find((a) => a.address.value === sponsoredFpc?.value)?.amount ?? DEFAULT_PREFUNDED_AMOUNT;
  const fpc = [
    ...(bananaFpc ? bananaFpcBanner(bananaFpc) : []),
    ...(sponsoredFpc ? sponsoredFpcBanner(sponsoredFpc, fpcAmount) : []),
  ];
  if (accounts.length === 0) return ['No prefunded accounts (--prefunded-accounts none).', ...fpc, ''].join('\n');
  const lines = ['', 'Prefunded accounts (FeeJuice at genesis)', '========================================', ''];
  let testAccounts = 0;
  accounts.forEach((a, i) => {
    lines.push(`(${i}) ${a.address}  ${formatFeeJuice(a.amount)}`);
    const keys = TEST_ACCOUNTS.find((t) => t.address.value === a.address.value);
    if (!keys) return;
    testAccounts++;
    lines.push(`    secret ${keys.secret}`, `    salt ${keys.salt}`, `    signing key ${keys.signingKey}`);
  });
  if (testAccounts > 0) {
    lines.push(
      '',
      "The accounts with keys are Aztec's test accounts (Schnorr). In aztec.js 4.1.2, with a wallet on this node:",
      "  const [a] = await getInitialTestAccountsData(); // from '@aztec/accounts/testing'",
      '  const account = await wallet.createSchnorrAccount(a.secret, a.salt, a.signingKey);',
      'then deploy it (`(await account.getDeployMethod()).send({ from: AztecAddress.ZERO })`) paying with its own FeeJuice.',
    );
  }
  lines.push('', 'Txs paying fees from these addresses need no bridging. Change the set with --prefunded-accounts.');
  lines.push(...fpc, '');
  return `${lines.join('\n')}\n`;
}

function bananaFpcBanner(address: AztecAddress): string[] {
  return [
    '',
    `BananaFPC ${address}  ${formatFeeJuice(DEFAULT_PREFUNDED_AMOUNT)}`,
    "  4.1.2's local network FPC (getBananaFPCAddress), paid in its BananaCoin token; set up with the test",
    '  accounts at first start (--local-network-setup false skips that).',
  ];
}

function sponsoredFpcBanner(address: AztecAddress, amount: bigint): string[] {
  return [
    '',
    `Sponsored FPC ${address}  ${formatFeeJuice(amount)}`,
    "  pays any tx's fee, a new account's deployment too (--sponsored-fpc false turns it off). In aztec.js 4.1.2:",
    '  fee: { paymentMethod: new SponsoredFeePaymentMethod(address) }, after',
    '  wallet.registerContract(await node.getContract(address), SponsoredFPCContract.artifact).',
  ];
}

/** Whole units of 10^18 with the remainder, e.g. "10000.0 FJ (10000000000000000000000)". */
function formatFeeJuice(amount: bigint): string {
  const unit = 10n ** 18n;
  const frac = (amount % unit).toString().padStart(18, '0').replace(/0+$/, '') || '0';
  return `${amount / unit}.${frac} FJ (${amount})`;
}
