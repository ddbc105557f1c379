/** Helpers for ink component tests (ink-testing-library): frames without colours, and waiting for one. */
import { stripVTControlCharacters } from 'node:util';

export function plain(frame: string | undefined): string {
  return stripVTControlCharacters(frame ?? '');
}

/** Polls `lastFrame` until `check` passes on its plain text (ink renders on its own schedule). */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  check: (text: string) => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = plain(lastFrame());
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last frame:\n${text}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
