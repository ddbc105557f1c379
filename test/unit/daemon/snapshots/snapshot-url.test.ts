import { describe, expect, it } from 'vitest';
import { parseSnapshotUrl } from '../../../../src/daemon/snapshots/snapshot-url.js';

describe('parseSnapshotUrl', () => {
  it('takes s3:// and gs:// buckets with a prefix, without the trailing slash', () => {
    expect(parseSnapshotUrl('s3://snapshots/l2node/')).toBe('s3://snapshots/l2node');
    expect(parseSnapshotUrl('gs://bucket/snapshots')).toBe('gs://bucket/snapshots');
    expect(parseSnapshotUrl('s3://my.bucket-1')).toBe('s3://my.bucket-1');
  });

  it('refuses an endpoint or a key in the URL, naming where they go instead', () => {
    expect(() => parseSnapshotUrl('s3://bucket/p?endpoint=http://127.0.0.1:9000')).toThrow(
      /has a query or fragment: .*--snapshot-s3-endpoint/,
    );
    expect(() => parseSnapshotUrl('s3://AKIAX:secret@bucket/p')).toThrow(
      /must not carry credentials.*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
  });

  it('refuses what is not a bucket name, and other schemes', () => {
    expect(() => parseSnapshotUrl('gs://My_Bucket/x')).toThrow(
      /"My_Bucket" in "gs:\/\/My_Bucket\/x" is not a bucket name/,
    );
    expect(() => parseSnapshotUrl('s3://ab/x')).toThrow(/"ab" .* is not a bucket name/);
    expect(() => parseSnapshotUrl('ftp://host/x')).toThrow(
      /unsupported scheme ftp:\/\/ .*file:\/\/, http\(s\):\/\/, s3:\/\/ or gs:\/\//,
    );
  });
});
