import type { CustomRoute, Exchange, HeaderList } from '@api/core/extension';
import { HAS_BR, HAS_GZIP, negotiate } from '../negotiate/accept-encoding';
import { ifNoneMatch } from '../negotiate/if-none-match';
import type { AssetFile } from '../table/build-table';

/** One representation of a file, with both answers' header lists decided at wiring. */
interface Variant {
  readonly body: Buffer;
  /** The quoted entity tag. */
  readonly etag: string;
  /** Headers of a 200 (core appends the route tail and `content-length`). */
  readonly ok: HeaderList;
  /** Headers of a 304: `etag`, `cache-control`, `vary`; no body framing. */
  readonly notModified: HeaderList;
}

/**
 * The custom route of one file. A request does: read two request headers, pick a variant (only
 * when a compressed copy exists and `Accept-Encoding` was sent), compare `If-None-Match` (only
 * when sent), and one `ex.send` with a copy of a prebuilt header list (`send` appends to it).
 */
export class AssetRoute implements CustomRoute {
  readonly method = 'GET';
  /** The path is exact: a file named `{id}.css` must never turn into a route slot. */
  readonly literal = true;
  readonly owner = 'assets';
  readonly operation = 'asset';
  readonly hidden = true;
  readonly #identity: Variant;
  readonly #gzip: Variant | undefined;
  readonly #br: Variant | undefined;
  readonly #available: number;

  constructor(
    readonly path: string,
    readonly file: AssetFile,
    cacheControl: string | undefined,
  ) {
    const compressed = file.gzip !== undefined || file.br !== undefined;
    const variant = (body: Buffer, etag: string, encoding: string | undefined): Variant => {
      const shared: HeaderList = ['etag', etag];
      if (cacheControl !== undefined) shared.push('cache-control', cacheControl);
      if (compressed) shared.push('vary', 'accept-encoding');
      const ok: HeaderList = ['content-type', file.mediaType.contentType];
      if (encoding !== undefined) ok.push('content-encoding', encoding);
      ok.push(...shared);
      return { body, etag, ok, notModified: shared };
    };
    this.#identity = variant(file.body, `"${file.hash}"`, undefined);
    this.#gzip = file.gzip && variant(file.gzip, `"${file.hash}-gzip"`, 'gzip');
    this.#br = file.br && variant(file.br, `"${file.hash}-br"`, 'br');
    this.#available = (file.gzip ? HAS_GZIP : 0) | (file.br ? HAS_BR : 0);
  }

  handle(ex: Exchange): void {
    const headers = ex.req.headers;
    let variant = this.#identity;
    if (this.#available !== 0) {
      const accept = headers['accept-encoding'];
      if (accept !== undefined) {
        const encoding = negotiate(accept, this.#available);
        if (encoding === 'gzip') variant = this.#gzip!;
        else if (encoding === 'br') variant = this.#br!;
      }
    }
    const tags = headers['if-none-match'];
    if (tags !== undefined && ifNoneMatch(tags, variant.etag)) {
      ex.send(304, variant.notModified.slice());
      return;
    }
    ex.send(200, variant.ok.slice(), variant.body);
  }
}
