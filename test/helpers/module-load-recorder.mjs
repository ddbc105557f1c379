// Preloaded with `node --import` into a spawned CLI: records every module the process resolves (ESM imports and
// CommonJS requires alike, through Node's synchronous module hooks) with the module that first asked for it, and
// writes them at exit to the file named by L2NODE_MODULE_LOG, one `<url> <- <parent url>` line each. The
// start-up tests read it to see what a run loaded. Node's own undici (fetch, WebSocket) is not resolved through
// the hooks: when it was loaded, its line is `node:internal/deps/undici/undici <- node:internal`.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.L2NODE_MODULE_LOG;
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
    if (process.moduleLoadList.includes('NativeModule internal/deps/undici/undici')) {
      loaded.set('node:internal/deps/undici/undici', 'node:internal');
    }
    writeFileSync(file, [...loaded].map(([url, parent]) => `${url} <- ${parent}\n`).join(''));
  });
}
