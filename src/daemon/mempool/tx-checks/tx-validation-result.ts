/**
 * The outcome of validating a tx (4.1.2 TxValidationResult, docs/aztec-facts.md section 2.4): valid; invalid with
 * reasons; or skipped, which only "Insufficient fee per gas" gives: the tx may become valid when fees drop.
 */
export type TxValidationResult =
  | { readonly result: 'valid' }
  | { readonly result: 'invalid'; readonly reason: readonly string[] }
  | { readonly result: 'skipped'; readonly reason: readonly string[] };

export const VALID: TxValidationResult = Object.freeze({ result: 'valid' });

export function invalid(...reason: string[]): TxValidationResult {
  return { result: 'invalid', reason };
}

export function skipped(...reason: string[]): TxValidationResult {
  return { result: 'skipped', reason };
}

/**
 * Combines the results of every validator as 4.1.2's aggregate validator does: any invalid makes the tx
 * invalid, else any skipped makes it skipped; the reasons of both are listed in validator order.
 */
export function combineResults(results: readonly TxValidationResult[]): TxValidationResult {
  let outcome: 'valid' | 'invalid' | 'skipped' = 'valid';
  const reasons: string[] = [];
  for (const r of results) {
    if (r.result === 'valid') continue;
    if (r.result === 'invalid') outcome = 'invalid';
    else if (outcome === 'valid') outcome = 'skipped';
    reasons.push(...r.reason);
  }
  return outcome === 'valid' ? VALID : { result: outcome, reason: reasons };
}
