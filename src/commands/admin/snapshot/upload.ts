import { Args } from '@oclif/core';
import { AdminCommand } from '../../_lib/admin-command.js';

export default class AdminSnapshotUpload extends AdminCommand {
  static override summary = 'Start uploading a snapshot of the node database to a location.';
  static override description =
    'Calls nodeAdmin_startSnapshotUpload(location). The upload runs in the node; the node refuses a second one ' +
    'while one runs. The --json result is {location}.';
  static override examples = [
    '<%= config.bin %> admin snapshot upload file:///var/backups/l2node',
    '<%= config.bin %> admin snapshot upload gs://bucket/snapshots --json',
  ];
  static override args = {
    location: Args.string({ ignoreStdin: true, description: 'Upload location URL.', required: true }),
  };

  protected async execute(): Promise<unknown> {
    const { args, flags } = await this.parse(AdminSnapshotUpload);
    await this.adminNode(flags).call('nodeAdmin_startSnapshotUpload', args.location);
    this.log(`Snapshot upload to ${args.location} started.`);
    return { location: args.location };
  }
}
