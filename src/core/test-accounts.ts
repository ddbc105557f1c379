import { AztecAddress } from './aztec-address.js';

/**
 * The official Aztec 4.1.2 test accounts (`getInitialTestAccountsData()` of `@aztec/accounts/testing`): Schnorr
 * accounts whose keys every Aztec developer already has. A dev chain prefunds them at genesis so the official
 * wallets can deploy and use them at once. Kept here as data, not derived, so the node carries no dependency on
 * the accounts package; test/unit/test-accounts.test.ts checks every value against that package.
 */
export interface TestAccount {
  /** The account contract's address (a function of the keys, the salt and the Schnorr account class). */
  readonly address: AztecAddress;
  /** The account's secret key (0x-prefixed field element): its master keys derive from it. */
  readonly secret: string;
  /** The deployment salt (0x-prefixed field element). */
  readonly salt: string;
  /** The Schnorr signing key (0x-prefixed Grumpkin scalar). */
  readonly signingKey: string;
}

function account(address: string, secret: string, salt: string, signingKey: string): TestAccount {
  return { address: AztecAddress.fromString(address), secret, salt, signingKey };
}

const ZERO = `0x${'0'.repeat(64)}`;

export const TEST_ACCOUNTS: readonly TestAccount[] = [
  account(
    '0x0a60414ee907527880b7a53d4dacdeb9ef768bb98d9d8d1e7200725c13763331',
    '0x2153536ff6628eee01cf4024889ff977a18d9fa61d0e414422f7681cf085c281',
    ZERO,
    '0x2b0668a0c5029fc39c489bd4c5a53b279f9a493d36af338f48b65db37a4e7b8a',
  ),
  account(
    '0x00cedf87a800bd88274762d77ffd93e97bc881d1fc99570d62ba97953597914d',
    '0x0aebd1b4be76efa44f5ee655c20bf9ea60f7ae44b9a7fd1fd9f189c7a0b0cdae',
    ZERO,
    '0x06eee295d74d9d4e6aec5e3106d7ba7b2c0c3ec2873e7e9149449aae96696270',
  ),
  account(
    '0x1dd551228da3a56b5da5f5d73728e08d8114f59897c27136f1bcdd4c05028905',
    '0x0f6addf0da06c33293df974a565b03d1ab096090d907d98055a8b7f4954e120c',
    ZERO,
    '0x22a37cf85375a80c4c462062586179e0543473dec7e43f2f10b81198fc7e9b07',
  ),
];
