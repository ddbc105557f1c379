/**
 * How a tx's public phases ended (4.1.2 avm/revert_code.ts). Private-only txs are always OK. Binary: one byte;
 * JSON: the number.
 */
export const RevertCode = {
  OK: 0,
  /** App logic reverted; its state changes were dropped (teardown, if any, ran). */
  APP_LOGIC_REVERTED: 1,
  /** Teardown reverted; app logic succeeded. */
  TEARDOWN_REVERTED: 2,
  /** Both reverted; only setup effects remain. */
  BOTH_REVERTED: 3,
} as const;

export type RevertCode = (typeof RevertCode)[keyof typeof RevertCode];

export function isRevertCode(v: unknown): v is RevertCode {
  return v === 0 || v === 1 || v === 2 || v === 3;
}
