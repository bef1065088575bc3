import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { METADATA_DOCUMENT, type DocumentFetcher, type FetchedDocument } from '../oauth/client-metadata.js';
import { OAuthError } from '../oauth/oauth-errors.js';

/**
 * Fetches client ID metadata documents from node:http, reaching only the public internet: the
 * host is resolved first, every address it resolves to is checked, and the connection goes to
 * the checked address (the name is not looked up again, so a rebinding DNS answer changes
 * nothing). Refused: private, loopback, link-local, carrier-grade NAT, multicast, reserved
 * and unspecified addresses, IPv4 and IPv6 alike (loopback only when `allowLoopback`, for local
 * testing). No redirect is followed, the body is cut at `METADATA_DOCUMENT.maxBytes`, and the
 * whole fetch must end within `METADATA_DOCUMENT.timeoutMs`.
 */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Why the simulator will not connect to this address, or null when it may. */
export function forbiddenAddress(address: string, allowLoopback: boolean): string | null {
  const family = isIP(address);
  if (family === 0) return 'is not an IP address';
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const [plain, type] = mapped ? [mapped, 'ipv4' as const] : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (LOOPBACK.check(plain, type)) return allowLoopback ? null : 'is a loopback address';
  if (FORBIDDEN.check(plain, type)) return 'is a private, link-local or reserved address';
  return null;
}

export function clientMetadataFetcher(options: { allowLoopback?: boolean } = {}): DocumentFetcher {
  const allowLoopback = options.allowLoopback === true;
  return async (url) => {
    const refuse = (why: string) => new OAuthError('invalid_client', `The client metadata document at ${url.href} ${why}.`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true }).catch(() => []);
    if (addresses.length === 0) throw refuse(`cannot be fetched: ${host} does not resolve`);
    for (const { address } of addresses) {
      const problem = forbiddenAddress(address, allowLoopback);
      if (problem) throw refuse(`is not fetched: ${host} resolves to ${address}, which ${problem}`);
    }
    const [chosen] = addresses as [{ address: string; family: number }];
    return get(url, chosen, refuse);
  };
}

function get(url: URL, to: { address: string; family: number }, refuse: (why: string) => OAuthError): Promise<FetchedDocument> {
  // The connection goes to the address checked above, whatever the name resolves to now.
  const pinned: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [to]);
    else callback(null, to.address, to.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', lookup: pinned, headers: { accept: 'application/json' }, timeout: METADATA_DOCUMENT.timeoutMs }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        return reject(refuse(`answered with a redirect (HTTP ${status}${res.headers.location ? ` to ${res.headers.location}` : ''}), which is not followed`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > METADATA_DOCUMENT.maxBytes) {
          req.destroy();
          return reject(refuse(`is larger than ${METADATA_DOCUMENT.maxBytes} bytes`));
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', () => reject(refuse('could not be read whole')));
    });
    const deadline = setTimeout(() => {
      req.destroy();
      reject(refuse(`did not arrive within ${METADATA_DOCUMENT.timeoutMs / 1000} s`));
    }, METADATA_DOCUMENT.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy());
    req.on('error', (error) => reject(refuse(`cannot be fetched (${(error as NodeJS.ErrnoException).code ?? error.message})`)));
    req.end();
  });
}
