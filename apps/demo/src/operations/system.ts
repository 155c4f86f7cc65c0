import { BytesResponse, Endpoint, FileFormPart, FormPart, Struct, Tag } from '@api/core';
import * as v from 'valibot';
import { BlobHeaders, FormReport, Health } from '../models';

const system = new Tag('system', 'Health and diagnostics.');

/** GET /healthz → `{ status: 'ok' }`. */
export class HealthEndpoint extends Endpoint('/healthz', { meta: { tags: [system] } }) {
  get = this.operation({ returns: Health, meta: { summary: 'Liveness probe.' } }, () => ({ status: 'ok' }));
}

const RAW_OK = Buffer.from('{"status":"ok"}');

/** GET /raw-healthz → the same JSON as raw `application/octet-stream` bytes. */
export class RawHealthEndpoint extends Endpoint('/raw-healthz', { meta: { tags: [system] } }) {
  get = this.operation(
    { returns: BytesResponse.of(), meta: { summary: 'Liveness probe, as raw bytes.' } },
    () => new BytesResponse({ content: RAW_OK }),
  );
}

const FormRawHeadersIn = Struct('FormRawHeadersIn', {
  blob: FormPart(v.string(), { headers: BlobHeaders }),
  attachment: v.optional(FileFormPart()),
});

/** POST /form-raw-headers: reports the request's and the `blob` part's headers. */
export class FormRawHeadersEndpoint extends Endpoint('/form-raw-headers', { meta: { tags: [system] } }) {
  post = this.operation(
    {
      form: FormRawHeadersIn,
      rawHeaders: true,
      returns: FormReport,
      meta: { summary: 'Echo request and part headers.' },
    },
    ({ form, rawHeaders }) => ({
      requestHeaderNames: rawHeaders.keys(),
      partHeaderNames: form.blob.rawHeaders.keys(),
      partChecksumValues: form.blob.rawHeaders.getlist('x-checksum'),
      partContentType: form.blob.contentType ?? null,
      partTypedHeaders: {
        contentType: form.blob.headers.content_type ?? null,
        xChecksum: form.blob.headers.x_checksum ?? null,
      },
    }),
  );
}
