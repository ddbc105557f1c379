import { createHash } from 'node:crypto';
import { AztecAddress } from './aztec-address.js';
import { FR_MODULUS } from './fr.js';

/** How many fixed dev accounts a dev chain prefunds when not told otherwise. */
export const DEV_ACCOUNT_COUNT = 10;

/**
 * The address of dev account `index`: sha256 of "l2node dev account <index>" as a field element. The dev
 * chain prefunds these at genesis (src/daemon/sequencer/prefunded-accounts.ts), and clients (the tx bot,
 * `l2node tx build`) default their fee payer to them, so both derive them from here.
 */
export function devAccountAddress(index: number): AztecAddress {
  const digest = createHash('sha256').update(`l2node dev account ${index}`).digest();
  return new AztecAddress(BigInt(`0x${digest.toString('hex')}`) % FR_MODULUS);
}
