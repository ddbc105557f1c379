import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * `size` bytes from the operating system's cryptographically secure generator: read from /dev/urandom where the
 * system has it (Linux, macOS: the kernel's generator, which node:crypto's OpenSSL draws from too), else from
 * node:crypto's randomBytes. Why not node:crypto always: loading it costs a dev start about 5 ms (issue 27,
 * bench/startup), for the few random values a start makes (its admin API key, the store's write tokens).
 */
export function secureRandomBytes(size: number): Buffer {
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return process.getBuiltinModule('node:crypto').randomBytes(size);
  }
  try {
    // Only the device itself: a regular file at that path (a tampered image) is no source of randomness.
    if (!fstatSync(fd).isCharacterDevice()) return process.getBuiltinModule('node:crypto').randomBytes(size);
    const out = Buffer.alloc(size);
    for (let got = 0; got < size; ) {
      const read = readSync(fd, out, got, size - got, null);
      if (read <= 0) throw new Error('/dev/urandom gave no bytes');
      got += read;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Random bytes for tokens, read 6 KB at a time: a read of the device per token cost 20 times randomInt's time. */
let tokenBytes: Buffer = Buffer.alloc(0);
let tokenOffset = 0;

/**
 * A random integer of 48 bits (a write token: a value another writer's cannot be by chance). Tokens change on every
 * write of the mempool and the world state, so they come from a pool of the generator's bytes.
 */
export function randomToken48(): number {
  if (tokenOffset + 6 > tokenBytes.length) {
    tokenBytes = secureRandomBytes(6 * 1024);
    tokenOffset = 0;
  }
  const token = tokenBytes.readUIntBE(tokenOffset, 6);
  tokenOffset += 6;
  return token;
}
