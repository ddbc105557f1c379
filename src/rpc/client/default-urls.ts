/** Where a client looks for a node when no URL is given: the spec's default ports on this machine (part 8). */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8080';
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8880';
