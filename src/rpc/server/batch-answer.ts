import type { Writable } from 'node:stream';

/** An answer already serialised: the dispatcher measures every answer against the response budget. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A batch answer longer than this is written as its members answer (BatchAnswer.writeTo) instead of at the end. */
const STREAM_AFTER_CHARS = 256 * 1024;

/**
 * A batch's answer, assembled in request order as its members answer, within the response budget
 * (--rpc-max-response-size): once the answers kept are over it, each later member gets the refusal instead.
 *
 * A small batch is answered at the end as one text (with its length). A big one is written as it goes: once
 * its answers pass STREAM_AFTER_CHARS it is handed to the listener (`onReady`), which gives it its output
 * (writeTo), and from then on each member's answer is written as soon as the members before it are, then
 * dropped. The dispatcher runs the next member only when the output has room (waitForRoom), so a batch holds
 * about one member's answer in memory, not the whole of it: 24 batches of 100 x node_getBlocks(1,100) kept
 * 230 MB of answers alive (and the major GCs that came with them held the event loop for 100 ms and more); a
 * client that reads slowly holds back its own batch only, and one that went away stops it.
 */
export class BatchAnswer {
  /** Members' answers not written yet: undefined while a member runs, null once written or when none is owed. */
  private readonly parts: (string | null | undefined)[];
  /** Characters of the answer so far, brackets and commas included. */
  private size = 2;
  private over = false;
  private pending: number;
  /** Members before this index are written (or owed nothing). */
  private written = 0;
  private wroteAny = false;
  private out: Writable | undefined;
  /** A member is waiting for the output to drain (waitForRoom). */
  private waiting = false;
  /** onReady was called. */
  private handedOver = false;

  constructor(
    count: number,
    private readonly maxChars: number,
    /** The refusal owed to member `i` once the batch is over the budget. */
    private readonly refusal: (i: number) => string,
    /** Called once: with the whole answer when small, with this when it is to be written in steps, or undefined. */
    private readonly onReady: (answer: JsonText | BatchAnswer | undefined) => void,
  ) {
    this.parts = new Array(count);
    this.pending = count;
  }

  /** The answers kept are over the budget: later members are refused without running. */
  get overBudget(): boolean {
    return this.over;
  }

  /** Member `i` answered `text`, or nothing (a notification). */
  record(i: number, text: string | undefined): void {
    let part: string | null = null;
    if (text !== undefined) {
      // Past the budget an answer is dropped as it arrives: only the refusal is kept.
      part = this.over ? this.refusal(i) : text;
      this.size += part.length + 1;
      if (this.size > this.maxChars && !this.over) {
        this.over = true;
        part = this.refusal(i);
      }
    }
    this.parts[i] = part;
    this.pending--;
    if (this.out) this.flush();
    else if (this.handedOver) return;
    else if (this.pending === 0) this.finish();
    else if (this.size > STREAM_AFTER_CHARS) this.handOver(this);
  }

  /**
   * True when the output is full (or gone): `resume` then runs once it drained (never when it is gone), and the
   * caller starts no member meanwhile. False when a member may run now.
   */
  waitForRoom(resume: () => void): boolean {
    const out = this.out;
    if (!out) return false;
    if (out.destroyed) return true;
    if (!out.writableNeedDrain) return false;
    if (!this.waiting) {
      this.waiting = true;
      out.once('drain', () => {
        this.waiting = false;
        resume();
      });
    }
    return true;
  }

  /** Writes the answer to `out` (HTTP response or gzip stream): what is ready now, the rest as it comes. */
  writeTo(out: Writable): void {
    this.out = out;
    this.flush();
  }

  private finish(): void {
    const owed = this.parts.filter((p): p is string => typeof p === 'string');
    if (owed.length === 0) this.handOver(undefined);
    else if (this.size <= STREAM_AFTER_CHARS) this.handOver(new JsonText(`[${owed.join(',')}]`));
    else this.handOver(this);
  }

  private handOver(answer: JsonText | BatchAnswer | undefined): void {
    this.handedOver = true;
    this.onReady(answer);
  }

  /** Writes the answers ready in order, and ends the output after the last member. */
  private flush(): void {
    const out = this.out as Writable;
    if (out.destroyed) return;
    let chunk = '';
    while (this.written < this.parts.length) {
      const part = this.parts[this.written];
      if (part === undefined) break;
      if (part !== null) {
        chunk += this.wroteAny ? `,${part}` : `[${part}`;
        this.wroteAny = true;
        this.parts[this.written] = null;
      }
      this.written++;
    }
    // Streamed only once some answer is owed, so the opening bracket is written by the time the batch ends.
    if (this.written === this.parts.length) out.end(`${chunk}]`);
    else if (chunk !== '') out.write(chunk);
  }
}
