import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The reference values produced by Aztec 4.1.2 (a copy of the project's shared vectors file, kept in the
 * repo so a clone anywhere can run the tests; test/unit/core/vectors-fixture.test.ts checks the copy
 * against the shared original whenever that one is beside the project).
 */
const here = dirname(fileURLToPath(import.meta.url));
export const VECTORS_PATH = join(here, '..', 'fixtures', 'aztec-4.1.2-vectors.json');
export const SHARED_VECTORS_PATH = join(here, '..', '..', '..', 'shared', 'reference', 'vectors.json');

// biome-ignore lint/suspicious/noExplicitAny: the JSON document is read as-is and indexed by the tests
export const vectors: any = JSON.parse(readFileSync(VECTORS_PATH, 'utf8'));
