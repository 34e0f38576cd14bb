import type { CookieSerializeOptions } from '@fastify/cookie';

export interface SessionCookie {
  /** `__Host-wayfare_session` where Secure applies, `wayfare_session` on other plain-http hosts. */
  name: string;
  /**
   * The prefix of the cookies that bind a sign-in in progress to the browser that started it, one per
   * sign-in (SameSite=Lax survives the IdP redirect).
   */
  loginName: string;
  options: CookieSerializeOptions;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Browsers treat https and http://localhost as secure contexts: the Secure flag (and `__Host-`) apply. */
export function isSecureOrigin(publicOrigin: string): boolean {
  const url = new URL(publicOrigin);
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost');
}

/** The cookie attributes, derived once from the public origin. Never a Domain attribute. */
export function sessionCookie(publicOrigin: string): SessionCookie {
  const secure = isSecureOrigin(publicOrigin);
  const prefix = secure ? '__Host-' : '';
  return {
    name: `${prefix}wayfare_session`,
    loginName: `${prefix}wayfare_login`,
    options: { path: '/', httpOnly: true, secure, sameSite: 'lax' },
  };
}
