import { isAbsolute } from 'node:path';
import { parseBoolean, parseHttpUrl, parseInteger, parseNonEmpty } from '../config/parsers.js';
import { SettingParseError, type SettingValues, setting } from '../config/setting.js';
import { parseSnapshotUrl } from '../snapshots/snapshot-url.js';

/** Where the node keeps its one database, how much world state and block history, and a snapshot to start from. */
export const STORAGE_SETTINGS = {
  dataDirectory: setting<string | undefined>({
    key: 'dataDirectory',
    flag: 'data-directory',
    env: 'NODE_DATA_DIRECTORY',
    defaultValue: undefined,
    parse: parseNonEmpty,
    kind: 'string',
    group: 'Storage',
    description: 'Directory of the node database and admin key hash. Unset: everything lives in memory for one run.',
  }),
  worldStateHistoryBlocks: setting<number | undefined>({
    key: 'worldStateHistoryBlocks',
    flag: 'world-state-history-blocks',
    env: 'NODE_WORLD_STATE_HISTORY_BLOCKS',
    defaultValue: undefined,
    parse: parseInteger(0, 2 ** 31 - 1),
    kind: 'string',
    group: 'Storage',
    description:
      'Blocks of world-state history kept readable (sibling paths, witnesses, storage at a block); older ones are pruned once finalized. 0 keeps all. Unset: all in dev mode, 256 for a follower.',
  }),
  blockBodyHistoryBlocks: setting<number>({
    key: 'blockBodyHistoryBlocks',
    flag: 'block-body-history-blocks',
    env: 'NODE_BLOCK_BODY_HISTORY_BLOCKS',
    defaultValue: 0,
    parse: parseInteger(0, 2 ** 31 - 1),
    kind: 'string',
    group: 'Storage',
    description:
      'Blocks whose bodies (tx effects, their logs and the log tag index) are kept: the latest N. Older bodies are ' +
      'pruned as blocks arrive, a few blocks per new block and never above the finalized block; headers, the ' +
      'archive tree, tx hashes and contracts stay. A query of a pruned body answers BLOCK_NOT_AVAILABLE naming ' +
      'the oldest block with a body (docs/operations.md). 0 keeps all.',
  }),
  startupCheckBlocks: setting<number>({
    key: 'startupCheckBlocks',
    flag: 'startup-check-blocks',
    env: 'NODE_STARTUP_CHECK_BLOCKS',
    defaultValue: 64,
    parse: parseInteger(0, 2 ** 31 - 1),
    kind: 'string',
    group: 'Storage',
    description:
      'Newest blocks whose every commitment is recomputed from the stored data at each start (record checksums, body against header, tree nodes and roots, indexes: what `l2node db check --full` does for all); a damaged one refuses the start naming the repair. 0 skips it.',
  }),
  snapshotUrl: setting<string | undefined>({
    key: 'snapshotUrl',
    flag: 'snapshot-url',
    env: 'NODE_SNAPSHOT_URL',
    defaultValue: undefined,
    parse: parseSnapshotUrl,
    kind: 'string',
    group: 'Storage',
    description:
      'Bootstrap an empty --data-directory from the newest compatible snapshot of this index (file://, http(s)://, ' +
      's3:// or gs:// URL of an index.json, or the location it was uploaded to), then build or sync the rest ' +
      '(docs/operations.md).',
  }),
  snapshotUploadRoots: setting<readonly string[] | undefined>({
    key: 'snapshotUploadRoots',
    flag: 'snapshot-upload-roots',
    env: 'NODE_SNAPSHOT_UPLOAD_ROOTS',
    defaultValue: undefined,
    parse: parseAbsolutePaths,
    format: (v) => (v ? v.join(',') : ''),
    toJson: (v) => (v ? [...v] : v),
    kind: 'string',
    group: 'Storage',
    description:
      'Directories (absolute, comma-separated) that file:// snapshot uploads (nodeAdmin_startSnapshotUpload) may ' +
      "write under. Unset: anywhere but an l2node data directory (the node's own or another's).",
  }),
  // The AWS SDK's own variable for an S3 endpoint, so one setting serves the node and the aws CLI alike.
  snapshotS3Endpoint: setting<string | undefined>({
    key: 'snapshotS3Endpoint',
    flag: 'snapshot-s3-endpoint',
    env: 'AWS_ENDPOINT_URL_S3',
    defaultValue: undefined,
    parse: parseHttpUrl,
    kind: 'string',
    group: 'Storage',
    description:
      'The S3-compatible server (MinIO, Ceph, R2...) that s3:// snapshot locations are on, reached path-style. ' +
      'Unset: AWS S3. Region and credentials come from AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE.',
  }),
  snapshotS3MetadataCredentials: setting<boolean>({
    key: 'snapshotS3MetadataCredentials',
    flag: 'snapshot-s3-metadata-credentials',
    env: 'NODE_SNAPSHOT_S3_METADATA_CREDENTIALS',
    defaultValue: false,
    parse: parseBoolean,
    format: (v) => (v ? 'on' : 'off'),
    kind: 'string',
    group: 'Storage',
    description:
      'Let s3:// snapshots take credentials from the container credentials endpoint or the EC2 instance metadata ' +
      'service (169.254.169.254), as the AWS SDK would: true or false. Off, the node asks neither and looks only ' +
      'at the variables, the profile files, a credential_process and a web identity token file.',
  }),
  snapshotGcsEndpoint: setting<string>({
    key: 'snapshotGcsEndpoint',
    flag: 'snapshot-gcs-endpoint',
    env: 'NODE_SNAPSHOT_GCS_ENDPOINT',
    defaultValue: 'https://storage.googleapis.com',
    parse: parseHttpUrl,
    kind: 'string',
    group: 'Storage',
    description:
      "Google Cloud Storage's S3-compatible XML API, which gs:// snapshot locations go through with an HMAC key " +
      'in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (docs/operations.md).',
  }),
} as const;

/** One or more absolute paths, comma-separated. */
function parseAbsolutePaths(raw: string): readonly string[] {
  const paths = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (paths.length === 0) throw new SettingParseError('expected one or more absolute paths separated by commas');
  for (const p of paths) if (!isAbsolute(p)) throw new SettingParseError(`"${p}" is not an absolute path`);
  return paths;
}

export type StorageConfig = SettingValues<typeof STORAGE_SETTINGS>;
