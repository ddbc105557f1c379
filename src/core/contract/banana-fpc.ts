/**
 * The BananaFPC of Aztec 4.1.2's local network: a Token "BC" (BananaCoin, 18 decimals) and an FPC accepting it,
 * both with test account 0 as admin, instantiated with salt 0 and deployed universally (no deployer), so their
 * addresses are the same on every local network. The local network funds the FPC with FeeJuice at genesis (which
 * is why its genesis public data root differs from a chain funding only the test accounts) and deploys both
 * contracts at start. Values from `getBananaCoinAddress`/`getBananaFPCAddress` of `@aztec/aztec` 4.1.2, checked
 * against the published packages in test/unit/core/contract/banana-fpc.test.ts.
 */
import { AztecAddress } from '../aztec-address.js';

/** The token: `Token(admin = test account 0, "BC", "BC", 18)` with salt 0. */
export const BANANA_COIN_ADDRESS = AztecAddress.fromString(
  '0x1a9dad3d9b9d55021a8ce457225fa3f89d413c05da170fdad413a74aefee2705',
);

/** The FPC: `FPC(BANANA_COIN_ADDRESS, admin = test account 0)` with salt 0. */
export const BANANA_FPC_ADDRESS = AztecAddress.fromString(
  '0x099602ed42e355e5338ade3a9e314b3d15b6030b058a0c17c385f4a0f2d2b71a',
);

/** The BananaCoin's constructor arguments after the admin: name, symbol, decimals. */
export const BANANA_COIN_ARGS = { name: 'BC', symbol: 'BC', decimals: 18 } as const;
