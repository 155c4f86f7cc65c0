export { isMultipartFormData, parseBoundary } from './boundary';
export { MultipartError, type MultipartErrorKind } from './multipart-error';
export {
  defaultMultipartLimits,
  parseMultipart,
  type MultipartLimits,
  type MultipartPart,
} from './parse-multipart';
