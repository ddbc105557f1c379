/** A dev-mode control (the L1 stand-in's inbox) asked of a node that follows an upstream instead. */
export class DevModeOnlyError extends Error {
  override name = 'DevModeOnlyError';
}
