import { selectorFromSignature } from '../../../core/contract/selector-from-signature.js';
import { Fr } from '../../../core/fr.js';
import type { AllowedSetupFunction } from './allowed-setup-function.js';

/** The class id of 4.1.2's Token contract (`@aztec/noir-contracts.js/Token`), the BananaCoin's class. */
export const TOKEN_CLASS_ID = Fr.fromString('0x01efe16b55107894e6b6fb63cebc1a3233e23bbcd648fd9cdf6c0351749ce7ee');

/**
 * The two Token functions 4.1.2's local network adds to the setup allow list (its `getTokenAllowedSetupFunctions`)
 * so that FPC payments in a token work out of the box: `_increase_public_balance(to, amount)` from the token itself
 * (a private FPC payment's `transfer_to_public`) and `transfer_in_public(from, to, amount, nonce)` (a public FPC
 * payment's `fee_entrypoint_public`). The calldata lengths are the selector and the arguments' fields.
 */
export const TOKEN_ALLOWED_SETUP_FUNCTIONS: readonly AllowedSetupFunction[] = [
  {
    classId: TOKEN_CLASS_ID,
    selector: selectorFromSignature('_increase_public_balance((Field),u128)'),
    calldataLength: 3,
    onlySelf: true,
  },
  {
    classId: TOKEN_CLASS_ID,
    selector: selectorFromSignature('transfer_in_public((Field),(Field),u128,Field)'),
    calldataLength: 5,
  },
];
