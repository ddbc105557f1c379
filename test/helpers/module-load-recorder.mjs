// Preloaded with `node --import` into a spawned CLI: records every module the process resolves (ESM imports and
// CommonJS requires alike, through Node's synchronous module hooks) with the module that first asked for it, and
// writes them at exit to the file named by L2NODE_MODULE_LOG, one `<url> <- <parent url>` line each. The
// start-up tests read it to see what a run loaded. Modules Node loads for itself are not resolved through the
// hooks, nor are the builtins a bundle takes with process.getBuiltinModule: when one of INTERNAL was loaded
// (undici, behind fetch and WebSocket; fs/promises, behind node:fs's `promises`; crypto, which the bundles load when
// first used), its line is `node:<its internal name> <- node:internal`.
// Builtins without their ES module facades, which would load modules themselves (node:fs's reads its `promises`).
const { writeFileSync } = process.getBuiltinModule('node:fs');
const { registerHooks } = process.getBuiltinModule('node:module');

const file = process.env.L2NODE_MODULE_LOG;
const INTERNAL = ['internal/deps/undici/undici', 'internal/fs/promises', 'crypto'];
if (file) {
  const loaded = new Map();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (!loaded.has(resolved.url)) loaded.set(resolved.url, context.parentURL ?? '');
      return resolved;
    },
  });
  process.on('exit', () => {
    for (const name of INTERNAL) {
      if (process.moduleLoadList.includes(`NativeModule ${name}`)) loaded.set(`node:${name}`, 'node:internal');
    }
    writeFileSync(file, [...loaded].map(([url, parent]) => `${url} <- ${parent}\n`).join(''));
  });
}
