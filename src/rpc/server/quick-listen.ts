/**
 * Runs `listen` (which binds the node's HTTP listeners) with V8's regexp optimisation off, then turns it on again.
 *
 * Why: node:net looks every listen address up (dns.lookup, even an IP literal such as 127.0.0.1) and then tests it
 * against its IPv6 regular expression (net's isIpv6LinkLocal). That expression is large, and V8 compiles it on
 * its first use with its optimising regexp compiler, then again to machine code on the second: 5 to 10 ms of a
 * dev start's time to its first /status answer on a 2-core machine (bench/startup), for one test of
 * "127.0.0.1". Compiled without optimisation it takes under a millisecond and answers the same. Only the
 * expressions V8 compiles while the flag is off are affected (they run a little slower, and correctly); a process
 * started with its own --regexp-optimization setting is left as it is.
 */
export async function quickListen<T>(listen: () => Promise<T>): Promise<T> {
  const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('regexp-optimization'));
  if (own) return listen();
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--no-regexp-optimization');
  try {
    return await listen();
  } finally {
    v8.setFlagsFromString('--regexp-optimization');
  }
}
