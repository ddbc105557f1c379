import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SettingParseError } from '../config/setting.js';

const SUPPORTED = 'file://, http(s)://, s3:// or gs://';

/**
 * A snapshot location or index URL: `file:///abs/path`, an absolute path (taken as a file URL),
 * `http(s)://host/path`, or an object store's `s3://bucket/prefix` or `gs://bucket/prefix`. Other schemes are
 * refused with what is supported. Returns the URL as text, without a trailing slash; throws SettingParseError
 * naming what is wrong.
 */
export function parseSnapshotUrl(raw: string): string {
  const s = raw.trim();
  if (s.length === 0) throw new SettingParseError(`expected a ${SUPPORTED} URL, got an empty value`);
  if (isAbsolute(s)) return pathToFileURL(s).href.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new SettingParseError(`expected a ${SUPPORTED} URL or an absolute path, got "${raw}"`);
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
  if (url.protocol === 's3:' || url.protocol === 'gs:') return objectStoreUrl(url, raw);
  throw new SettingParseError(
    `unsupported scheme ${url.protocol.replace(/:$/, '')}:// in "${raw}": snapshots go to ${SUPPORTED} locations`,
  );
}

/** A bucket name as S3 and Google Cloud Storage both take it (lower case, digits, dots, dashes, underscores). */
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;

function objectStoreUrl(url: URL, raw: string): string {
  const scheme = url.protocol.replace(/:$/, '');
  if (url.username || url.password) {
    throw new SettingParseError(
      `the URL must not carry credentials (they would be logged and shown in /status): ${scheme}:// takes them ` +
        'from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
  }
  if (url.search || url.hash) {
    // 4.1.2 reads `?endpoint=` from an s3:// URL; here the endpoint is a setting, so it is never in a URL.
    throw new SettingParseError(
      `"${raw}" has a query or fragment: name the bucket and prefix only (${scheme}://bucket/prefix); an ` +
        'S3-compatible server is given with --snapshot-s3-endpoint',
    );
  }
  if (!BUCKET.test(url.host)) {
    throw new SettingParseError(
      `"${url.host}" in "${raw}" is not a bucket name (3 to 222 lower-case letters, digits, dots, dashes): ` +
        `expected ${scheme}://bucket/prefix`,
    );
  }
  return url.href.replace(/\/+$/, '');
}
