/** The node's copy of Aztec's test accounts is exactly what `@aztec/accounts/testing` derives. */
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNTS } from '../../../src/core/test-accounts.js';
import { initAztecOracle } from '../../helpers/aztec-oracle.js';

beforeAll(async () => {
  await initAztecOracle();
  await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
}, 60_000);

describe('TEST_ACCOUNTS', () => {
  it('equals getInitialTestAccountsData() of @aztec/accounts 4.1.2: addresses, secrets, salts, signing keys', async () => {
    const { getInitialTestAccountsData } = await import('@aztec/accounts/testing');
    const official = (await getInitialTestAccountsData()).map((a) => ({
      address: a.address.toString(),
      secret: a.secret.toString(),
      salt: a.salt.toString(),
      signingKey: a.signingKey.toString(),
    }));
    const ours = TEST_ACCOUNTS.map((a) => ({ ...a, address: a.address.toString() }));
    expect(ours).toEqual(official);
  }, 60_000);
});
