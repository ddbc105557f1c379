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

/** A random integer of 48 bits (a write token: a value another writer's cannot be by chance). */
export function randomToken48(): number {
  return secureRandomBytes(6).readUIntBE(0, 6);
}
