import { Args, Flags } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';
import { CliError } from '../../_lib/cli-error.js';
import { keyValues } from '../../_lib/human-format.js';
import { Spinner } from '../../_lib/spinner.js';
import { snapshotStatus, waitForSnapshot } from '../../_lib/wait-for-snapshot.js';

export default class AdminSnapshotUpload extends AdminCommand {
  static override summary = 'Upload a snapshot of the node database to a location.';
  static override description =
    'Calls nodeAdmin_startSnapshotUpload(location). The location is a file:// directory, an http(s):// URL that ' +
    'takes PUT, s3://bucket/prefix (AWS S3, or an S3-compatible server given to the node with ' +
    '--snapshot-s3-endpoint) or gs://bucket/prefix (Google Cloud Storage through its S3-compatible API, with an ' +
    "HMAC key in the node's AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY). The upload runs in the node, which " +
    'refuses a second one while one runs. Without --wait the command returns once the upload started (--json: ' +
    '{location}); with --wait it returns when the upload ended and prints the result (--json: the result, with ' +
    'indexUrl, the URL --snapshot-url takes), exiting 1 when the upload failed.';
  static override examples = [
    '<%= config.bin %> admin snapshot upload file:///var/backups/l2node --wait',
    '<%= config.bin %> admin snapshot upload s3://snapshots/l2node --wait --json',
    '<%= config.bin %> admin snapshot upload gs://bucket/snapshots --json',
  ];
  static override args = {
    location: Args.string({
      ignoreStdin: true,
      description: 'Upload location: file:///dir, http(s)://host/path, s3://bucket/prefix or gs://bucket/prefix.',
      required: true,
    }),
  };
  static override flags = {
    wait: Flags.boolean({ description: 'Wait until the upload ends and print its result (exit 1 if it failed).' }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(AdminSnapshotUpload);
    const node = this.adminNode(flags);
    const url = flags['admin-url'];
    const before = flags.wait ? (await snapshotStatus(node, url)).last : undefined;
    await node.call('nodeAdmin_startSnapshotUpload', args.location);
    if (!flags.wait) {
      this.log(`Snapshot upload to ${args.location} started.`);
      return { location: args.location };
    }
    const spinner = new Spinner(!this.jsonEnabled());
    spinner.start(`uploading a snapshot to ${args.location}`);
    const result = await waitForSnapshot(node, url, before, (s) => spinner.status(s));
    if (!result.ok) {
      await spinner.stop('failed');
      throw CliError.failed(
        `the snapshot upload to ${result.location} failed: ${result.error}`,
        'SNAPSHOT_FAILED',
        [],
        result,
      );
    }
    await spinner.stop('done');
    this.log(
      keyValues([
        ['uploaded', `block ${result.blockNumber} (${result.blockHash})`],
        ['index', result.indexUrl],
        ['data', result.dataUrl],
        ['size', `${result.bytes} bytes (gzip)`],
        ['took', `${((result.durationMs ?? 0) / 1000).toFixed(1)} s`],
      ]),
    );
    this.log(`Start a node from it with --snapshot-url ${result.indexUrl}`);
    return result;
  }
}
