/** A requested slot range the history cannot answer (4.1.2's message). */
export class SlotRangeError extends Error {
  override name = 'SlotRangeError';
}
