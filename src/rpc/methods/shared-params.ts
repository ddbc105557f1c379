import { type AztecCompat, required } from '../rpc-method.js';
import { blockParameter } from '../wire-types.js';

/** Params and limits several namespaces of the method table declare alike. */

/** The largest block or checkpoint number a param takes (u32). */
export const MAX_BLOCK = 2 ** 32 - 1;

export const SAME: AztecCompat = { aztec: 'same' };

export const block = required('blockNumber', blockParameter, 'Block to read: a number, "latest" or a block hash.');
