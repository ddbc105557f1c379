import { redactSecrets } from './redact-secrets.js';

/**
 * A keystore that cannot be used: unreadable, malformed, inconsistent, or asking for what this node cannot do.
 * The message follows 4.1.2's `Failed to load keystore from <path>: <reason>` (docs/aztec-facts.md section 2.11) and is
 * redacted, so no key ever reaches a log line or an RPC answer.
 */
export class KeystoreError extends Error {
  override name = 'KeystoreError';

  constructor(
    reason: string,
    readonly path: string,
  ) {
    super(redactSecrets(`Failed to load keystore from ${path}: ${reason}`));
  }
}

/** A reload the node refuses although the keystore itself loads (spec part 4 rules, docs/aztec-facts.md section 2.11). */
export class KeystoreReloadError extends Error {
  override name = 'KeystoreReloadError';

  constructor(reason: string) {
    super(redactSecrets(reason));
  }
}
