export { hasHeader, toHeaderName } from './header-name';
export { assertHeaderValue } from './header-value';
export { formatLink, type LinkParams } from './link';
export { parseQuery } from './query';
export { encodePathSegment, encodeUriReference } from './uri';
