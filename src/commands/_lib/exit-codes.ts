/**
 * The exit codes of every l2node command, so scripts can branch on why a command failed (issue 10). They
 * are the `status` of the `--json` envelope too.
 */
export const EXIT_CODES = {
  /** The command did what it was asked. */
  ok: 0,
  /** Anything else: the node refused the request, a check failed, a file was unreadable. */
  error: 1,
  /** Bad arguments or flags (including params the node refused as invalid). */
  usage: 2,
  /** The admin listener refused the API key (or none was given). */
  unauthorized: 3,
  /** The block, tx, contract... asked for does not exist. */
  notFound: 4,
  /** No node answered at the URL (refused, timed out, not an l2node). */
  unreachable: 5,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
