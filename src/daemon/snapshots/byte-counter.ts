import { Transform } from 'node:stream';

/** A pass-through stream that reports the bytes that went through it so far (upload and download progress). */
export function byteCounter(onProgress: (bytes: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      onProgress(total);
      done(null, chunk);
    },
  });
}
