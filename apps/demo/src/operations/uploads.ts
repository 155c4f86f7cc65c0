import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { Created, Endpoint, FileFormPart, Struct, Tag } from '@api/core';

const uploads = new Tag('uploads', 'Large files, streamed to disk as they arrive.');

/** A large upload: the file part goes to a temporary file as it streams in (not into memory). */
export const UploadIn = Struct('UploadIn', {
  note: v.optional(v.pipe(v.string(), v.maxLength(200))),
  file: FileFormPart.spooled(),
});
export const Uploaded = Struct('Uploaded', {
  filename: v.string(),
  size: v.number(),
  sha256: v.string(),
  note: v.nullable(v.string()),
});

/**
 * POST /uploads (mounted under /v1): hashes a spooled file part by streaming it back from disk;
 * the temporary file is removed by the framework when the response ends.
 */
export class UploadEndpoint extends Endpoint('/uploads', { meta: { tags: [uploads] } }) {
  post = this.operation(
    {
      form: UploadIn,
      returns: Created.of(Uploaded),
      meta: { summary: 'Upload a large file (streamed to disk).' },
    },
    async ({ form }) => {
      const hash = createHash('sha256');
      for await (const chunk of form.file.stream()) hash.update(chunk as Buffer);
      return new Created({
        json: {
          filename: form.file.filename,
          size: form.file.size,
          sha256: hash.digest('hex'),
          note: form.note ?? null,
        },
      });
    },
  );
}
