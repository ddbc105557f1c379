import { parseByteSize } from './parsers.js';
import { type Setting, setting } from './setting.js';

/** A size in bytes (1mb, 512kb or a plain number), shown in bytes. */
export function byteSize(
  key: string,
  flag: string,
  env: string,
  defaultValue: number,
  group: string,
  description: string,
): Setting<number> {
  return setting<number>({
    key,
    flag,
    env,
    defaultValue,
    parse: parseByteSize,
    format: (v) => `${v} bytes`,
    kind: 'string',
    group,
    description,
  });
}
