export {
  CookieError,
  SetCookie,
  parseCookieHeader,
  type SameSite,
  type SetCookieOptions,
} from './set-cookie';
