import { Flags } from '@oclif/core';
import type { FlagInput } from '@oclif/core/interfaces';
import type { Setting } from '../../daemon/config/setting.js';
import { REMOVED_SETTINGS, SETTINGS } from '../../daemon/config/settings.js';

/**
 * oclif flags generated from the settings table (all rows, or those `include` keeps). Flags stay raw strings
 * here: the table's parsers validate them together with their env twins, so every bad value gets the same
 * one-line error.
 */
export function settingFlags(include: (s: Setting<unknown>) => boolean = () => true): FlagInput {
  const flags: FlagInput = {};
  for (const s of (Object.values(SETTINGS) as Setting<unknown>[]).filter(include)) {
    const shown =
      s.defaultValue === undefined ? '' : ` [default: ${s.format ? s.format(s.defaultValue) : String(s.defaultValue)}]`;
    const description = `${s.description} [env: ${s.env}]${shown}`;
    flags[s.flag] =
      s.kind === 'boolean'
        ? Flags.boolean({ description, helpGroup: s.group })
        : Flags.string({ description, helpGroup: s.group });
  }
  // Removed flags are still recognised so that start-up can name their replacement.
  for (const r of REMOVED_SETTINGS.filter((r) => include(r.replacement as Setting<unknown>))) {
    flags[r.flag] = Flags.string({ hidden: true, description: `removed: use --${r.replacement.flag}` });
  }
  return flags;
}
