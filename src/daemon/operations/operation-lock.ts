/**
 * Runs one operation at a time, in call order: a rollback and the copy of a snapshot never overlap, so a
 * snapshot never holds half of a rollback and a rollback never moves the tip a snapshot is copying.
 */
export class OperationLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    // The next operation waits for this one whatever its outcome.
    this.tail = result.catch(() => {});
    return result;
  }
}
