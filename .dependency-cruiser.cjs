/**
 * The architecture check of `npm run lint` (docs in test/unit/architecture.test.ts): the layers' import rules
 * and no cycle, type-only imports included. A broken rule fails the lint with the offending import.
 */
/** Modules the CLI may load outside `start` and `db`: the settings table (and the parsers its rows use) and the logger. */
const SETTINGS_MODULES =
  '^src/daemon/(config|logging)/|^src/daemon/.+-settings\\.ts$|^src/bot/bot-settings\\.ts$|' +
  '^src/daemon/(validators/validator-setting-parsers|mempool/tx-checks/allowed-setup-function|sequencer/prefunded-accounts|snapshots/snapshot-url)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'core-imports-only-core',
      comment: 'src/core holds the protocol types and their codecs; it depends on nothing else of the project.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'rpc-imports-only-core',
      comment: 'src/rpc (method table, client, listener) builds on src/core only; the daemon hands it its handlers.',
      severity: 'error',
      from: { path: '^src/rpc/' },
      to: { path: '^src/', pathNot: '^src/(core|rpc)/' },
    },
    {
      name: 'commands-import-the-daemon-only-from-start-and-db',
      comment:
        'CLI commands talk to a node over JSON-RPC; only `start` (runs the daemon) and `db` (reads its database ' +
        'offline) load it. Elsewhere the CLI may read the settings table and use the logger.',
      severity: 'error',
      from: {
        path: '^src/commands/',
        pathNot: '^src/commands/(start\\.ts|db/|_lib/(start-banner|offline-database)\\.ts$)',
      },
      to: { path: '^src/daemon/', pathNot: SETTINGS_MODULES },
    },
    {
      name: 'settings-import-no-service',
      comment: 'The settings table and the logger load nothing of the daemon services, so the CLI may load them.',
      severity: 'error',
      from: { path: SETTINGS_MODULES },
      to: { path: '^src/daemon/', pathNot: SETTINGS_MODULES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-cycles',
      comment: 'No import cycle, type-only ones included: the layers form a graph that can be read bottom up.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    // Type-only imports count: a type cycle is a cycle of concepts.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
