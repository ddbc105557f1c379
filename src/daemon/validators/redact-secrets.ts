/**
 * Replaces anything in a text that could be a private key (32 bytes of hex, with or without 0x) by
 * `<redacted>`. Keystore errors pass through it before they are logged or returned: a message built from a
 * library's error (a JSON syntax error quotes the text around the fault) could otherwise carry a key.
 * Addresses (20 bytes) are left alone: they are what the operator needs to find the entry.
 */
export function redactSecrets(text: string): string {
  return text.replace(/(0x)?[0-9a-fA-F]{64,}/g, '<redacted>');
}
