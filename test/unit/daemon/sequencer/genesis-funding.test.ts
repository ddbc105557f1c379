import { describe, expect, it } from 'vitest';
import { BANANA_FPC_ADDRESS } from '../../../../src/core/contract/banana-fpc.js';
import { SPONSORED_FPC } from '../../../../src/core/contract/sponsored-fpc.js';
import { computeFeePayerBalanceLeafSlot } from '../../../../src/core/hash/siloing.js';
import { TEST_ACCOUNTS } from '../../../../src/core/test-accounts.js';
import { resolveConfig } from '../../../../src/daemon/config/resolve-config.js';
import {
  bananaFpcAddress,
  genesisFeeJuice,
  genesisFundedAccounts,
  genesisPublicData,
  recordGenesisContracts,
  sponsoredFpcAddress,
} from '../../../../src/daemon/sequencer/genesis-funding.js';
import {
  defaultPrefundedAccounts,
  prefundedAccountsBanner,
} from '../../../../src/daemon/sequencer/prefunded-accounts.js';
import { ChainStore } from '../../../../src/daemon/store/chain-store.js';
import { openNodeDatabase } from '../../../../src/daemon/store/node-database.js';

describe('--sponsored-fpc', () => {
  const fpc = SPONSORED_FPC.address;

  it('is on by default: the FPC holds 10^22 FeeJuice at genesis beside the prefunded accounts and the BananaFPC', () => {
    const { config } = resolveConfig({}, {});
    expect(config.sponsoredFPC).toBe(true);
    expect(sponsoredFpcAddress(config)).toEqual(fpc);
    expect(bananaFpcAddress(config)).toEqual(BANANA_FPC_ADDRESS);
    const funded = genesisFundedAccounts(config);
    expect(funded.map((a) => a.address)).toEqual([...TEST_ACCOUNTS.map((a) => a.address), BANANA_FPC_ADDRESS, fpc]);
    expect(genesisFeeJuice(config)).toBe(5n * 10n ** 22n);
    expect(genesisPublicData(config)).toContainEqual({
      slot: computeFeePayerBalanceLeafSlot(fpc.value),
      value: 10n ** 22n,
    });
  });

  it('false (flag or env) leaves it out; an explicit --prefunded-accounts entry for it sets its amount', () => {
    for (const { config } of [
      resolveConfig({ 'sponsored-fpc': 'false' }, {}),
      resolveConfig({}, { NODE_SPONSORED_FPC: '0' }),
    ]) {
      expect(sponsoredFpcAddress(config)).toBeUndefined();
      expect(genesisFundedAccounts(config).map((a) => a.address)).toEqual([
        ...TEST_ACCOUNTS.map((a) => a.address),
        BANANA_FPC_ADDRESS,
      ]);
    }
    // An explicit list leaves the BananaFPC out, as 4.1.2's local network without its test accounts.
    const { config } = resolveConfig({ 'prefunded-accounts': `${fpc}:5` }, {});
    expect(bananaFpcAddress(config)).toBeUndefined();
    expect(genesisFundedAccounts(config)).toEqual([{ address: fpc, amount: 5n }]);
    expect(() => resolveConfig({ 'sponsored-fpc': 'maybe' }, {})).toThrow(/--sponsored-fpc: expected true or false/);
  });

  it('records its class and instance at block 0 of the chain store', () => {
    const db = openNodeDatabase(null);
    try {
      const store = new ChainStore(db);
      recordGenesisContracts(store, resolveConfig({ 'sponsored-fpc': 'false' }, {}).config);
      expect(store.getContractInstanceAt(fpc.value, 0n)).toBeUndefined();
      recordGenesisContracts(store, resolveConfig({}, {}).config);
      expect(store.getContractInstanceAt(fpc.value, 0n)?.toJSON()).toEqual(SPONSORED_FPC.instance.toJSON());
      expect(store.getContractClass(SPONSORED_FPC.contractClass.id.value)?.toJSON()).toEqual(
        SPONSORED_FPC.contractClass.toJSON(),
      );
    } finally {
      db.close();
    }
  });

  it('the banner shows its address and how aztec.js pays through it', () => {
    const banner = prefundedAccountsBanner(defaultPrefundedAccounts(), fpc);
    expect(banner).toContain(`Sponsored FPC ${fpc}  10000.0 FJ`);
    expect(banner).toContain('new SponsoredFeePaymentMethod(address)');
    expect(prefundedAccountsBanner([], fpc)).toContain(`Sponsored FPC ${fpc}`);
    expect(prefundedAccountsBanner([{ address: fpc, amount: 5n }], fpc)).toContain(
      `Sponsored FPC ${fpc}  0.000000000000000005 FJ (5)`,
    );
    expect(prefundedAccountsBanner(defaultPrefundedAccounts(), undefined)).not.toContain('Sponsored FPC');
    expect(prefundedAccountsBanner(defaultPrefundedAccounts(), fpc, BANANA_FPC_ADDRESS)).toContain(
      `BananaFPC ${BANANA_FPC_ADDRESS}  10000.0 FJ`,
    );
  });
});
