import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * Which push endpoints the BFF stores and sends to. A browser's PushSubscription names a URL of its push
 * service, and the BFF later opens a connection to it: without a policy, a traveler could make the BFF
 * connect wherever they like (server-side request forgery). An endpoint must be on an allowed origin of a
 * push service, its host a name (never an address), and every address that name resolves to a public
 * unicast one, when it is stored and again as each message is sent (the connection goes to the address
 * that was checked, so a name that resolves elsewhere a second time cannot slip through).
 */

/** The push services browsers use: Chrome (FCM), Firefox (autopush), Safari (Apple), Edge (Windows). */
export const DEFAULT_PUSH_ENDPOINT_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
].join(',');

/** One allowed origin: `host` exactly, or (wildcard) any name below it. `port` is '' for the default one. */
export interface PushOrigin {
  protocol: 'https:' | 'http:';
  host: string;
  wildcard: boolean;
  port: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function parseOrigin(entry: string): PushOrigin | string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `"${entry}" is not an origin`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `"${entry}" is not https`;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || entry.endsWith('/')) {
    return `"${entry}" must be an origin only (scheme, host, optional port)`;
  }
  const wildcard = url.hostname.startsWith('*.');
  const host = wildcard ? url.hostname.slice(2) : url.hostname;
  if (host.includes('*') || (wildcard && (isIP(host) !== 0 || !host.includes('.')))) {
    return `"${entry}": a wildcard is only "*." before a domain name`;
  }
  if (url.protocol === 'http:' && !LOOPBACK_NAMES.has(url.hostname)) {
    return `"${entry}": plain http is only for a push service on loopback`;
  }
  return { protocol: url.protocol, host, wildcard, port: url.port };
}

/** PUSH_ENDPOINT_ORIGINS: comma-separated origins, `https://*.example.com` for any name below one. */
export const PushEndpointOriginsSchema = z.string().transform((text, context) => {
  const origins: PushOrigin[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const parsed = parseOrigin(entry);
    if (typeof parsed === 'string') context.addIssue({ code: 'custom', message: parsed });
    else origins.push(parsed);
  }
  if (origins.length === 0) context.addIssue({ code: 'custom', message: 'name at least one origin' });
  return origins;
});

export interface PushEndpointPolicyOptions {
  origins: readonly PushOrigin[];
  /**
   * Development and tests only: push services on this machine (loopback addresses, and plain http to
   * them), for the local push service stand-ins. Still only on an allowed origin.
   */
  allowLoopback: boolean;
  /** The resolver; node's (the system's, as the connection itself uses) unless a test gives another. */
  lookup?: typeof dnsLookup;
}

export type EndpointVerdict = { kind: 'allowed' } | { kind: 'refused' } | { kind: 'unresolved' };

/** An address the BFF may connect to: public unicast only (loopback too, when allowed). */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/** DNS answers that mean "try again later" rather than "there is no such name". */
const TRANSIENT_DNS_ERRORS = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL']);

export class PushEndpointPolicy {
  readonly #origins: readonly PushOrigin[];
  readonly #allowLoopback: boolean;
  readonly #lookup: typeof dnsLookup;

  constructor(options: PushEndpointPolicyOptions) {
    this.#origins = options.origins;
    this.#allowLoopback = options.allowLoopback;
    this.#lookup = options.lookup ?? dnsLookup;
  }

  /** The endpoint's URL when its scheme, origin and host form are allowed (no resolution yet). */
  allowedUrl(endpoint: string): URL | undefined {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return undefined;
    }
    if (url.username || url.password) return undefined;
    const origin = this.#origins.find(
      (candidate) =>
        candidate.protocol === url.protocol &&
        candidate.port === url.port &&
        (candidate.wildcard ? url.hostname.endsWith(`.${candidate.host}`) : url.hostname === candidate.host),
    );
    if (!origin) return undefined;
    if (url.protocol === 'http:' && !this.#allowLoopback) return undefined;
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !(this.#allowLoopback && isLoopbackAddress(literal))) return undefined;
    return url;
  }

  /** Checks an endpoint before it is stored: allowed origin, and every address of its host allowed. */
  async check(endpoint: string): Promise<EndpointVerdict> {
    const url = this.allowedUrl(endpoint);
    if (!url) return { kind: 'refused' };
    try {
      await this.#resolveChecked(url.hostname.replace(/^\[|\]$/g, ''));
      return { kind: 'allowed' };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      return TRANSIENT_DNS_ERRORS.has(code) ? { kind: 'unresolved' } : { kind: 'refused' };
    }
  }

  /**
   * A `lookup` for the connection to a push service: it resolves the name, refuses the connection when
   * any address is not allowed, and hands the connection exactly the addresses it checked.
   */
  readonly connectLookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    this.#resolveChecked(hostname, options.family).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  #resolveChecked(hostname: string, family?: number | string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) => {
      const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : (family as 0 | 4 | 6 | undefined);
      this.#lookup(hostname, { all: true, family: wanted ?? 0 }, (error, addresses) => {
        if (error) {
          reject(error);
          return;
        }
        if (
          addresses.length === 0 ||
          !addresses.every((entry) => isAllowedAddress(entry.address, this.#allowLoopback))
        ) {
          reject(
            Object.assign(new Error(`${hostname} resolves to an address push messages are never sent to`), {
              code: 'EPUSHADDRESS',
            }),
          );
          return;
        }
        resolve(addresses);
      });
    });
  }
}

/** Settings that only mean something together (see loadConfig). */
export function pushEndpointSettingIssues(config: {
  PUSH_ENDPOINT_ORIGINS: readonly PushOrigin[];
  PUSH_ENDPOINT_ALLOW_LOOPBACK: boolean;
  PUBLIC_ORIGIN: string;
}): string[] {
  const issues: string[] = [];
  if (config.PUSH_ENDPOINT_ALLOW_LOOPBACK && !LOOPBACK_NAMES.has(new URL(config.PUBLIC_ORIGIN).hostname)) {
    issues.push(
      'PUSH_ENDPOINT_ALLOW_LOOPBACK: only for a BFF on a loopback PUBLIC_ORIGIN (development, tests)',
    );
  }
  if (
    !config.PUSH_ENDPOINT_ALLOW_LOOPBACK &&
    config.PUSH_ENDPOINT_ORIGINS.some((origin) => origin.protocol === 'http:')
  ) {
    issues.push('PUSH_ENDPOINT_ORIGINS: a plain http origin needs PUSH_ENDPOINT_ALLOW_LOOPBACK=true');
  }
  return issues;
}
