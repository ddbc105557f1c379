import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The reference vectors produced by Aztec 4.1.2 (`../shared/reference/vectors.json`, beside the project
 * root). Tests read them from there, so a change to the reference is picked up without a copy drifting.
 */
const here = dirname(fileURLToPath(import.meta.url));
export const VECTORS_PATH = join(here, '..', '..', '..', 'shared', 'reference', 'vectors.json');

// biome-ignore lint/suspicious/noExplicitAny: the JSON document is read as-is and indexed by the tests
export const vectors: any = JSON.parse(readFileSync(VECTORS_PATH, 'utf8'));
