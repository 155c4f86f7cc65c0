import { parseHeaderParams } from './header-params';

function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/**
 * True when `contentType` is `multipart/form-data` (any case, any parameters).
 *
 * @param contentType - The request's `content-type` header.
 * @example
 * isMultipartFormData('multipart/form-data; boundary=x'); // true
 */
export function isMultipartFormData(contentType: string | undefined): boolean {
  return contentType !== undefined && mediaType(contentType) === 'multipart/form-data';
}

/**
 * True for an RFC 2046 boundary length (1–70) made of visible ASCII or space, not ending in a space.
 *
 * @param boundary - The boundary without the leading `--`.
 * @example
 * isValidBoundary('----WebKitFormBoundary7MA4YWxkTrZu0gW'); // true
 */
export function isValidBoundary(boundary: string): boolean {
  const len = boundary.length;
  if (len === 0 || len > 70 || boundary.charCodeAt(len - 1) === 0x20) return false;
  for (let i = 0; i < len; i++) {
    const c = boundary.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * Extracts the boundary from a `multipart/form-data` content type (quoted or not).
 *
 * Returns `undefined` when the media type is not `multipart/form-data`, the parameter is missing or
 * unparsable, or the boundary is not 1–70 visible ASCII characters.
 *
 * @param contentType - The request's `content-type` header.
 * @example
 * parseBoundary('multipart/form-data; boundary="a b"'); // 'a b'
 */
export function parseBoundary(contentType: string | undefined): string | undefined {
  if (!isMultipartFormData(contentType)) return undefined;
  const parsed = parseHeaderParams(contentType as string);
  const boundary = parsed?.params.get('boundary');
  return boundary !== undefined && isValidBoundary(boundary) ? boundary : undefined;
}
