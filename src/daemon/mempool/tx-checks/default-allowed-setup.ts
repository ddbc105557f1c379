import { AztecAddress } from '../../../core/aztec-address.js';
import { CANONICAL_AUTH_REGISTRY_ADDRESS, FEE_JUICE_ADDRESS } from '../../../core/constants.js';
import { selectorFromSignature } from '../../../core/contract/selector-from-signature.js';
import type { AllowedSetupFunction } from './allowed-setup-function.js';

/**
 * The defaults of 4.1.2 (p2p msg_validators/tx_validator/allowed_public_setup.ts): three functions of
 * protocol contracts, by address, with the calldata length their artifacts give (selector + arguments).
 * AuthRegistry `_set_authorized(approver, message_hash, authorize)` and `set_authorized(message_hash,
 * authorize)` serve authwits; FeeJuice `_increase_public_balance(to, amount)` serves claiming fee juice in
 * the same tx that spends it.
 */
export const DEFAULT_ALLOWED_SETUP_FUNCTIONS: readonly AllowedSetupFunction[] = [
  {
    address: new AztecAddress(CANONICAL_AUTH_REGISTRY_ADDRESS),
    selector: selectorFromSignature('_set_authorized((Field),Field,bool)'),
    calldataLength: 4,
    onlySelf: true,
    rejectNullMsgSender: true,
  },
  {
    address: new AztecAddress(CANONICAL_AUTH_REGISTRY_ADDRESS),
    selector: selectorFromSignature('set_authorized(Field,bool)'),
    calldataLength: 3,
    rejectNullMsgSender: true,
  },
  {
    address: new AztecAddress(FEE_JUICE_ADDRESS),
    selector: selectorFromSignature('_increase_public_balance((Field),u128)'),
    calldataLength: 3,
    onlySelf: true,
  },
];

/** FeeJuice `_increase_public_balance`: a setup call to it from FeeJuice itself tops up the fee payer. */
export const INCREASE_PUBLIC_BALANCE_SELECTOR = selectorFromSignature('_increase_public_balance((Field),u128)');
