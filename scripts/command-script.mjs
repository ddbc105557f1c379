// How the bundle's code runs (dist/cli/command-script.js, made by scripts/bundle-cli.mjs): a command's static graph,
// and oclif's lean part with its chunks, are V8 scripts (dist/cli/<name>.script.cjs) that this module compiles and
// runs, each with a code cache of its own.
//
// Why not an ES module with Node's compile cache: Node writes a module's code cache right after compiling it, so the
// cache holds the top-level code and none of the functions the run then calls; V8 compiles each of those on its
// first call, every run. For a dev start that is over a thousand functions, about 30 ms of its 200 ms to the
// first /status answer on a 2-core machine, before this (bench/startup). A script's cache can be made after it ran
// (`createCachedData`), with every function compiled by then: the next run compiles none of them.
//
// The cache lives beside Node's compile cache (module.getCompileCacheDir(): bin/run.js enables it, NODE_COMPILE_CACHE
// names another, NODE_DISABLE_COMPILE_CACHE=1 turns both off), in l2node-scripts/, one file per script and build
// (the build's hash of the script is in its name: V8 itself checks only the source's length). It is written once,
// when it was missing or V8 rejected it (another Node or V8 flags): a second after the script ran or at exit, if
// sooner, so a start's cache holds its start-up and its first requests. A cache directory another user could
// write to is not used, nor a cache file that is not the user's own (a code cache is code): the script then runs
// without one.
//
// With source-mapped stack traces (`node --enable-source-maps`), the script loads as the CommonJS module it also is,
// with Node's compile cache only: Node maps a stack trace's frames only in files its own loaders loaded (it reads
// no source map of a vm script), and a debugging run is the one that needs them mapped.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');
const { createRequire, getCompileCacheDir } = process.getBuiltinModule('node:module');
const { fileURLToPath } = process.getBuiltinModule('node:url');

/** dist/cli/, where this module and every command's bundle lie. */
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Where a script puts its function on the `this` of its top level (scripts/bundle-cli.mjs toScript). */
const SCRIPT = Symbol.for('l2node.script');

/** How long after the script ran its cache is written, unless the process exits sooner. */
const WARM_MS = 1000;

/**
 * Runs the script `script` (a file beside `moduleUrl`, the URL of the command's module that calls this) and answers
 * its exports. `hash` is the build's hash of the script; `imports` are the modules it imports, by specifier;
 * `dynamicImport` is the calling module's `import()`, which the script's dynamic imports call.
 */
export async function runCommandScript(moduleUrl, script, hash, imports, dynamicImport) {
  const file = path.join(path.dirname(fileURLToPath(moduleUrl)), script);
  if (process.sourceMapsEnabled) return createRequire(moduleUrl)(file)[SCRIPT](moduleUrl, imports, dynamicImport);
  const cacheFile = cacheFileOf(path.relative(HERE, file), hash);
  const cachedData = cacheFile && readOrUndefined(cacheFile);
  const compiled = new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file, cachedData });
  if (cacheFile && (cachedData === undefined || compiled.cachedDataRejected)) {
    const save = once(() => writeCache(cacheFile, compiled.createCachedData()));
    process.once('exit', save);
    setTimeout(save, WARM_MS).unref();
  }
  const run = compiled.runInThisContext();
  delete globalThis[SCRIPT];
  return run(moduleUrl, imports, dynamicImport);
}

/**
 * The cache file of the script at `script` (its path in dist/cli/) in this build, or undefined when there is no cache
 * directory l2node may use.
 */
function cacheFileOf(script, hash) {
  const base = getCompileCacheDir?.();
  if (!base) return undefined;
  const dir = path.join(base, 'l2node-scripts');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(dir);
    if ((process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return undefined;
  } catch {
    return undefined;
  }
  return path.join(dir, `${encodeURIComponent(script)}-${hash}.v8`);
}

/**
 * The cache in `file` when it is there and this user's own, written by no one else (the directory could be swapped).
 */
function readOrUndefined(file) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0)
      return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes a cache whole (a reader never sees half of one), then removes the caches of the script's other builds. */
function writeCache(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, data, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // A cache that cannot be written only costs the next run the speed-up.
    fs.rmSync(temp, { force: true });
    return;
  }
  const dir = path.dirname(file);
  const own = path.basename(file);
  const prefix = own.slice(0, own.lastIndexOf('-') + 1);
  for (const name of fs.readdirSync(dir)) {
    if (name !== own && name.startsWith(prefix) && /^[0-9a-f]+\.v8$/.test(name.slice(prefix.length))) {
      fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}

function once(fn) {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
