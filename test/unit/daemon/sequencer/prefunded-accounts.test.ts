import { describe, expect, it } from 'vitest';
import { AztecAddress } from '../../../../src/core/aztec-address.js';
import { toHex64 } from '../../../../src/core/fr.js';
import { TEST_ACCOUNTS } from '../../../../src/core/test-accounts.js';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import {
  DEFAULT_PREFUNDED_AMOUNT,
  defaultPrefundedAccounts,
  parsePrefundedAccounts,
  prefundedAccountsBanner,
  prefundedGenesisData,
} from '../../../../src/daemon/sequencer/prefunded-accounts.js';

describe('--prefunded-accounts', () => {
  it('reads address[:amount] lists, none, and defaults the amount to 10^22', () => {
    const a = toHex64(1n);
    const b = toHex64(0xabcn);
    expect(parsePrefundedAccounts(`${a},${b}:5`)).toEqual([
      { address: new AztecAddress(1n), amount: DEFAULT_PREFUNDED_AMOUNT },
      { address: new AztecAddress(0xabcn), amount: 5n },
    ]);
    expect(parsePrefundedAccounts('none')).toEqual([]);
    expect(resolveConfig({ 'prefunded-accounts': `${a}:7` }, {}).config.prefundedAccounts).toEqual([
      { address: new AztecAddress(1n), amount: 7n },
    ]);
    expect(resolveConfig({}, {}).config.prefundedAccounts).toBeUndefined();
  });

  it('says what is wrong with a bad list', () => {
    expect(() => parsePrefundedAccounts('0x12')).toThrow(/entry 1: "0x12" is not an L2 address/);
    expect(() => parsePrefundedAccounts(`${toHex64(1n)}:ten`)).toThrow(/amount "ten" is not a decimal integer/);
    expect(() => parsePrefundedAccounts(`${toHex64(1n)},${toHex64(1n)}`)).toThrow(/listed twice/);
    expect(() => parsePrefundedAccounts(`${toHex64(1n)}:1:2`)).toThrow(/expected address\[:amount\]/);
    expect(() => resolveConfig({ 'prefunded-accounts': '' }, {})).toThrow(/prefunded-accounts/);
  });

  it('funds each account at its FeeJuice balance leaf slot (4.1.2 vector for address 1)', () => {
    const [entry] = prefundedGenesisData([{ address: new AztecAddress(1n), amount: 9n }]);
    expect(toHex64(entry?.slot ?? 0n)).toBe('0x2097d69a249a3689b41d5de39df296fddf0f6919bfb7ee38370b1082df1925af');
    expect(entry?.value).toBe(9n);
  });

  it("defaults to Aztec's three test accounts, printed with their balances and keys", () => {
    const accounts = defaultPrefundedAccounts();
    expect(accounts.map((a) => a.address)).toEqual(TEST_ACCOUNTS.map((a) => a.address));
    expect(accounts.every((a) => a.amount === 10n ** 22n)).toBe(true);
    const banner = prefundedAccountsBanner(accounts, undefined);
    expect(banner).toContain(`(0) ${accounts[0]?.address}  10000.0 FJ (10000000000000000000000)`);
    for (const t of TEST_ACCOUNTS) {
      expect(banner).toContain(`secret ${t.secret}`);
      expect(banner).toContain(`signing key ${t.signingKey}`);
    }
    expect(banner).toContain('wallet.createSchnorrAccount(a.secret, a.salt, a.signingKey)');
    // An account that is not a test account has no keys to print.
    const other = prefundedAccountsBanner([{ address: new AztecAddress(1n), amount: 1n }], undefined);
    expect(other).not.toMatch(/secret|createSchnorrAccount/);
    expect(prefundedAccountsBanner([], undefined)).toMatch(/No prefunded accounts/);
  });
});
