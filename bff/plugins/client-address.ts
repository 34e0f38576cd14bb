import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Cuts an X-Forwarded-For chain at its right-most hop that is not an IP address, dropping that hop and
 * everything to its left. Fastify (proxy-addr) then walks what is left from the right, through the
 * addresses of TRUST_PROXY only, and takes the first hop that is not one of them; a value that is not an
 * address (`<script>`, `unknown`, a host name) can no longer become the client address, and with nothing
 * left the socket's address is the client's.
 */
export function keepAddressHops(headers: IncomingHttpHeaders): void {
  const header = headers['x-forwarded-for'];
  if (header === undefined) return;
  const hops = [header].flat().join(',').split(',');
  const kept: string[] = [];
  for (const hop of hops.reverse().map((value) => value.trim())) {
    if (isIP(hop) === 0) break;
    kept.unshift(hop);
  }
  if (kept.length === 0) delete headers['x-forwarded-for'];
  else headers['x-forwarded-for'] = kept.join(', ');
}
