export { isMultipartFormData, parseBoundary } from './boundary';
export { MultipartError, type MultipartErrorKind } from './multipart-error';
export { defaultMultipartLimits, type MultipartLimits } from '../contract/limits';
export { parseMultipart, type MultipartPart, type MultipartSpool, type SpoolFile } from './parse-multipart';
