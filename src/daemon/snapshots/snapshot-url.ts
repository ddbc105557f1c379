import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SettingParseError } from '../config/setting.js';

/**
 * A snapshot location or index URL: `file:///abs/path`, an absolute path (taken as a file URL), or
 * `http(s)://host/path`. Other schemes (4.1.2 also has gs:// and s3://) are refused with what is supported.
 * Returns the URL as text, without a trailing slash; throws SettingParseError naming what is wrong.
 */
export function parseSnapshotUrl(raw: string): string {
  const s = raw.trim();
  if (s.length === 0) throw new SettingParseError('expected a file:// or http(s):// URL, got an empty value');
  if (isAbsolute(s)) return pathToFileURL(s).href.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new SettingParseError(`expected a file:// or http(s):// URL or an absolute path, got "${raw}"`);
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost') {
      throw new SettingParseError(`a file:// URL must name a local absolute path (file:///dir), got "${raw}"`);
    }
    return url.href.replace(/\/+$/, '');
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.username || url.password) {
      throw new SettingParseError('the URL must not carry credentials (they would be logged and shown in /status)');
    }
    return url.href.replace(/\/+$/, '');
  }
  throw new SettingParseError(
    `unsupported scheme ${url.protocol.replace(/:$/, '')}:// in "${raw}": snapshots go to file:// or http(s):// locations`,
  );
}
