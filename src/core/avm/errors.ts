/**
 * The two kinds of failure inside the AVM, as Aztec 4.1.2 separates them.
 *
 * - `AvmHaltError`: an exceptional halt of the current call frame (tag mismatch, out of gas, bad jump, side-effect
 *   limit, ...). The frame reverts with empty output and consumes all of its gas; the caller carries on. The
 *   message is the one 4.1.2 puts in the revert reason, word for word, so revert reasons compare equal.
 * - `AvmInternalError`: anything 4.1.2 treats as an unchecked error (an inconsistent world state, empty bytecode,
 *   a debug-log budget overrun). It aborts the whole simulation; the tx cannot be processed.
 */
import { MEM_TAG_U128 } from '../constants.js';

export class AvmHaltError extends Error {
  override name = 'AvmHaltError';
}

export class AvmInternalError extends Error {
  override name = 'AvmInternalError';
}

/** Tag names as 4.1.2 prints them in tag-check messages. */
const TAG_NAMES = ['FIELD', 'UINT1', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'UINT128', 'INVALID'];

export function tagName(tag: number): string {
  return TAG_NAMES[tag > MEM_TAG_U128 ? 7 : tag] as string;
}

export function tagMismatchAt(offset: number, gotTag: number, expectedTag: number): AvmHaltError {
  return new AvmHaltError(`Tag mismatch at offset ${offset}, got ${tagName(gotTag)}, expected ${tagName(expectedTag)}`);
}

export function notIntegral(gotTag: number): AvmHaltError {
  return new AvmHaltError(`Tag mismatch, got ${tagName(gotTag)}, expected integral`);
}

export function memorySliceOutOfRange(offset: number, size: number): AvmHaltError {
  return new AvmHaltError(`Memory slice is out of range. Base address ${offset}, size ${size}`);
}

export function outOfGas(l2: boolean, da: boolean): AvmHaltError {
  const dims = [];
  if (l2) dims.push('L2GAS');
  if (da) dims.push('DAGAS');
  return new AvmHaltError(`Not enough ${dims.join(', ')} gas left`);
}

export function sideEffectLimitReached(kind: string, limit: number): AvmHaltError {
  return new AvmHaltError(`Reached the limit (${limit}) on number of '${kind}' per tx`);
}

export function staticCallAlteration(): AvmHaltError {
  return new AvmHaltError('Static call cannot update the state, emit L2->L1 messages or generate logs');
}

export function divisionByZero(): AvmHaltError {
  return new AvmHaltError('Division by zero');
}
