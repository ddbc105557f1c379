import { NULL_MSG_SENDER_CONTRACT_ADDRESS } from '../../../core/constants.js';
import type { Fr } from '../../../core/fr.js';
import type { PublicCallWithCalldata, TxMeta } from '../tx-meta.js';
import type { AllowedSetupFunction } from './allowed-setup-function.js';
import { TX_ERROR } from './tx-error-texts.js';
import type { TxValidationContext } from './tx-validation-context.js';
import { invalid, type TxValidationResult, VALID } from './tx-validation-result.js';

/**
 * Every public call of the tx's setup phase (the non-revertible one, which runs before fees are paid and
 * cannot be undone) is on the allow list, and meets the entry's restrictions (4.1.2 PhasesTxValidator).
 * Entries by address are tried first; entries by class need the target's class, looked up once.
 */
export function validatePhases(tx: TxMeta, ctx: TxValidationContext): TxValidationResult {
  if (!tx.tx.data.isForPublic) return VALID;
  for (const call of tx.setupCalls()) {
    const reason = checkAllowList(call, ctx);
    if (reason) return invalid(reason);
  }
  return VALID;
}

function checkAllowList(call: PublicCallWithCalldata, ctx: TxValidationContext): string | undefined {
  const contract = call.request.contractAddress.value;
  // Public functions are reached through the dispatch function: calldata[0] is the target's selector.
  const selector = call.calldata.length > 0 ? (call.calldata[0] as Fr).value : -1n;
  for (const entry of ctx.setupAllowList) {
    if ('address' in entry && entry.address.value === contract && BigInt(entry.selector.value) === selector) {
      return checkRestrictions(call, entry);
    }
  }
  let classId: bigint | undefined | null = null;
  for (const entry of ctx.setupAllowList) {
    if (!('classId' in entry)) continue;
    if (classId === null) {
      classId = ctx.contractClassIdOf(contract);
      if (classId === undefined) return TX_ERROR.SETUP_FUNCTION_UNKNOWN_CONTRACT;
    }
    if (entry.classId.value === classId && BigInt(entry.selector.value) === selector) {
      return checkRestrictions(call, entry);
    }
  }
  return TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED;
}

function checkRestrictions(call: PublicCallWithCalldata, entry: AllowedSetupFunction): string | undefined {
  if (entry.calldataLength !== undefined && call.calldata.length !== entry.calldataLength) {
    return TX_ERROR.SETUP_WRONG_CALLDATA_LENGTH;
  }
  const sender = call.request.msgSender.value;
  if (entry.onlySelf && sender !== call.request.contractAddress.value) return TX_ERROR.SETUP_ONLY_SELF_WRONG_SENDER;
  if (entry.rejectNullMsgSender && sender === NULL_MSG_SENDER_CONTRACT_ADDRESS) return TX_ERROR.SETUP_NULL_MSG_SENDER;
  return undefined;
}

/**
 * For people: which setup calls are not on the allow list, by contract, class and function, and the setting entry
 * that would allow each. 4.1.2's reason names none of them, so a wallet user cannot tell what to allow.
 */
export function setupRefusalDetails(tx: TxMeta, ctx: TxValidationContext): string[] {
  if (!tx.tx.data.isForPublic) return [];
  const details: string[] = [];
  for (const call of tx.setupCalls()) {
    if (checkAllowList(call, ctx) !== TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED) continue;
    const contract = call.request.contractAddress.value;
    const selector = call.calldata.length > 0 ? Number((call.calldata[0] as Fr).value & 0xffffffffn) : undefined;
    const selectorHex = selector === undefined ? 'none' : `0x${selector.toString(16).padStart(8, '0')}`;
    const name = selector === undefined ? undefined : ctx.functionNameOf?.(selector);
    const classId = ctx.contractClassIdOf(contract);
    const hex = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;
    details.push(
      `setup call to ${name ?? 'function'} (selector ${selectorHex}) of contract ${hex(contract)}` +
        (classId === undefined ? '' : ` (class ${hex(classId)})`) +
        ` is not on the allow list; allow it with --tx-public-setup-allow-list-extend ` +
        (classId === undefined ? `I:${hex(contract)}:${selectorHex}` : `C:${hex(classId)}:${selectorHex}`),
    );
  }
  return details;
}
