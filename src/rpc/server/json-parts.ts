import type { Writable } from 'node:stream';
import { nextTurn } from './event-loop-turns.js';

/**
 * A batch's answer kept as its members' serialised answers, `[a,b,...]` once written: a big batch is written
 * in steps (streamJsonParts) instead of being joined into one string and one buffer at once, which held the
 * event loop for seconds with 24 batches of 100 x node_getBlocks(1,100) and doubled their memory.
 */
export class JsonParts {
  constructor(
    readonly parts: readonly string[],
    /** Bytes of the written answer (UTF-8, brackets and commas included). */
    readonly bytes: number,
  ) {}
}

/** How much of an answer one step writes. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Writes `answer` to `out` in chunks of about CHUNK_CHARS, one per event-loop turn (nextTurn), waiting for `out`
 * to drain when it is full: at most a chunk or two of the answer is copied at a time, and a slow reader holds
 * nothing but its own answer. Stops when `out` is destroyed (the client went away).
 */
export function streamJsonParts(out: Writable, answer: JsonParts): void {
  const { parts } = answer;
  let i = 0;
  const step = (): void => {
    if (out.destroyed) return;
    let chunk = i === 0 ? '[' : '';
    while (i < parts.length && chunk.length < CHUNK_CHARS) {
      chunk += i > 0 ? `,${parts[i]}` : parts[i];
      i++;
    }
    if (i === parts.length) {
      out.end(`${chunk}]`);
      return;
    }
    if (out.write(chunk)) nextTurn(step);
    else out.once('drain', () => nextTurn(step));
  };
  step();
}
