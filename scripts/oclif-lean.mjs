// The lean `@oclif/core` of l2node's command bundles (dist/cli/oclif-lean.js, made by scripts/bundle-cli.mjs): the
// part of oclif a successful run of a command uses, taken from oclif's own modules. oclif's index loads all of
// oclif (its Config and plugin loader, help, ejs, semver, the ux spinners), about 50 ms of a CLI call; a run needs
// its flags, arguments and parser, its error classes and the writers of its output.
//  - Built with dist/cli/oclif.js in one esbuild build: the modules both use (the parser, the error classes, the
//    cache of settings) are shared chunks, so an error thrown here is an instance of the full oclif's classes and
//    its handler (Errors.handle, loaded on the error path) treats it as it always did.
//  - Each name is one the full index exports too, with the same value or (Errors, ux) a part of it: a command
//    compiled against `@oclif/core` runs unbundled on the full oclif as well. A name a command imports that is
//    not here fails the build (scripts/bundle-cli.mjs); help, Errors.handle, ux.action and Config come from
//    `await import('@oclif/core')`, which a command's bundle takes from the full oclif.
import * as oclifArgs from '../node_modules/@oclif/core/lib/args.js';
import { error } from '../node_modules/@oclif/core/lib/errors/error.js';
import { CLIError } from '../node_modules/@oclif/core/lib/errors/errors/cli.js';
import { ExitError } from '../node_modules/@oclif/core/lib/errors/errors/exit.js';
import { exit } from '../node_modules/@oclif/core/lib/errors/exit.js';
import { warn } from '../node_modules/@oclif/core/lib/errors/warn.js';
import * as oclifFlags from '../node_modules/@oclif/core/lib/flags.js';
import { flush } from '../node_modules/@oclif/core/lib/flush.js';
import { getLogger } from '../node_modules/@oclif/core/lib/logger.js';
import * as oclifParser from '../node_modules/@oclif/core/lib/parser/index.js';
import colorizeJsonModule from '../node_modules/@oclif/core/lib/ux/colorize-json.js';
import { stderr, stdout } from '../node_modules/@oclif/core/lib/ux/write.js';

// oclif's index warns when the working directory was removed (its checkCWD, run when it is imported).
try {
  process.cwd();
} catch (err) {
  if (err.code === 'ENOENT') process.stderr.write('WARNING: current directory does not exist\n');
}

// The namespaces as oclif's index gives them (its `__importStar` of each CommonJS module): their own names only.
const namespace = (module) =>
  Object.freeze(Object.fromEntries(Object.entries(module).filter(([k]) => k !== 'default')));

export const Args = namespace(oclifArgs);
export const Flags = namespace(oclifFlags);
export const Parser = namespace(oclifParser);
export const Errors = Object.freeze({ CLIError, ExitError, error, exit, warn });
export const ux = Object.freeze({
  stdout,
  stderr,
  // A CommonJS module whose function is its `default` export; an import from it is its module.exports.
  colorizeJson: colorizeJsonModule.default,
  get action() {
    throw new Error("ux.action is not in l2node's lean oclif: take it from `await import('@oclif/core')`");
  },
});
export { flush, getLogger };
