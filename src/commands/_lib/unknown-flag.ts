import damerauLevenshtein from 'damerau-levenshtein';

/**
 * "unknown flag --prot, did you mean --port?" for the flags oclif found no definition for (its
 * NonExistentFlagsError carries them in `flags`), or undefined for any other error. oclif's own answer is the
 * whole usage (`start` has hundreds of lines of flags) with the typo at the top.
 */
export function unknownFlagMessage(err: unknown, known: readonly string[]): string | undefined {
  const typed = (err as { flags?: unknown }).flags;
  if (!(err instanceof Error) || err.constructor.name !== 'NonExistentFlagsError' || !Array.isArray(typed)) {
    return undefined;
  }
  const parts = typed.map((raw) => {
    const flag = String(raw).split('=')[0] as string;
    const suggestion = closestFlag(flag.replace(/^-+/, ''), known);
    return suggestion ? `${flag}, did you mean --${suggestion}?` : flag;
  });
  return `unknown flag${parts.length === 1 ? '' : 's'} ${parts.join('; ')}`;
}

/** The known flag closest to the typed one, within a third of its letters (at least two edits). */
function closestFlag(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; steps: number } | undefined;
  for (const name of known) {
    const { steps } = damerauLevenshtein(typed, name);
    if (!best || steps < best.steps) best = { name, steps };
  }
  return best && best.steps <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}
