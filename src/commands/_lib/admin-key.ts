import { CredentialsStore } from './credentials-store.js';

/** Where the admin key of a command came from, for `status` and for messages. */
export type AdminKeySource = 'given' | 'saved' | 'none';

/**
 * The admin API key a command sends: --api-key or NODE_ADMIN_API_KEY (oclif hands both over as the flag),
 * else the key saved for this admin URL, else none (the node then answers 401 and the error says how to log in).
 */
export function resolveAdminKey(
  given: string | undefined,
  adminUrl: string,
  store = new CredentialsStore(),
): { apiKey: string | undefined; source: AdminKeySource } {
  if (given) return { apiKey: given, source: 'given' };
  const saved = store.get(adminUrl);
  return saved ? { apiKey: saved.apiKey, source: 'saved' } : { apiKey: undefined, source: 'none' };
}
