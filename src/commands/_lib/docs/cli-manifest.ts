import type { Command, Interfaces } from '@oclif/core';

/** The oclif manifest (`oclif.manifest.json`): every command's metadata, so oclif need not import them to list them. */
export interface CliManifest {
  readonly version: string;
  readonly commands: Record<string, Command.Cached>;
}

/**
 * Builds the manifest from the built commands (dist/commands), with oclif's own command cache, as `oclif
 * manifest` does: every command module is imported once, here, at build time.
 */
export async function buildCliManifest(root: string): Promise<CliManifest> {
  const { Plugin } = await import('@oclif/core');
  const plugin = new Plugin({
    root,
    type: 'core',
    isRoot: true,
    ignoreManifest: true,
    errorOnManifestCreate: true,
    respectNoCacheDefault: true,
  } as Interfaces.PluginOptions);
  await plugin.load();
  const commands = Object.fromEntries(Object.entries(plugin.manifest.commands).sort(([a], [b]) => a.localeCompare(b)));
  return { version: plugin.manifest.version, commands };
}

/** Commands shown to users (not hidden), by id. */
export function visibleCommands(manifest: CliManifest): Command.Cached[] {
  return Object.values(manifest.commands).filter((c) => !c.hidden);
}

/** `l2node-admin-rollback` for `admin:rollback`. */
export function manPageName(bin: string, id: string): string {
  return `${bin}-${id.replaceAll(':', '-')}`;
}
