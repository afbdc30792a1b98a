/**
 * DNS-rebinding protection: the Host header must name this server, and a browser's Origin (when
 * sent) must be this server's own origin (scheme, host and port). A page on evil.example resolving
 * to 127.0.0.1 is refused, and so is one on another port of this host.
 */
import { hostname as osHostname, networkInterfaces } from 'node:os';
import type { MiddlewareHandler } from 'hono';
import { CairnError } from '../core/errors.js';
import { errorResponse } from './http-errors.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Hostnames this server answers to: loopback names, plus (when bound beyond loopback) its own names and addresses and any extras. */
export function allowedHostnames(bindHost: string, extra: readonly string[] = []): Set<string> {
  const out = new Set<string>(LOOPBACK_NAMES);
  const add = (h: string) => out.add(h.toLowerCase().includes(':') && !h.startsWith('[') ? `[${h.toLowerCase()}]` : h.toLowerCase());
  add(bindHost);
  extra.forEach(add);
  if (!isLoopbackHost(bindHost)) {
    const name = osHostname();
    add(name);
    add(`${name}.local`);
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) add(a.address);
  }
  return out;
}

/** The hostname part of a Host header or an Origin, bracketed for IPv6, lower-case; undefined when unparsable. */
function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    return new URL(isOrigin ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser's Origin is this server's own: the same host and port as the Host header (itself
 * checked above), and the scheme the request came by (or, behind a TLS proxy, X-Forwarded-Proto's).
 * Comparing host names alone would let a page on the same host but another port or scheme call in.
 */
function sameOrigin(origin: string, host: string, requestUrl: string, forwardedProto: string | undefined): boolean {
  let o: URL;
  let own: URL;
  try {
    o = new URL(origin);
    own = new URL(`${new URL(requestUrl).protocol}//${host}`);
  } catch {
    return false;
  }
  const schemes = [own.protocol, ...(forwardedProto ? [`${forwardedProto.split(',')[0]!.trim().toLowerCase()}:`] : [])];
  // `host` is hostname and port, a default port left out by the parser on both sides.
  return schemes.includes(o.protocol) && o.host === own.host;
}

export function hostGuard(allowed: Set<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    const h = host ? hostnameOf(host, false) : undefined;
    if (!h || !allowed.has(h)) {
      return errorResponse(
        new CairnError('FORBIDDEN', `Host "${host ?? ''}" is not one this server answers to (DNS-rebinding protection).`, {
          suggestions: ['Connect through localhost or 127.0.0.1, or start cairn serve with CAIRN_ALLOWED_HOSTS=<name>'],
        }),
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !sameOrigin(origin, host!, c.req.url, c.req.header('x-forwarded-proto'))) {
      return errorResponse(
        new CairnError('FORBIDDEN', `Origin "${origin}" may not call this server: only pages it serves itself (same scheme, host and port) may (cross-site requests are refused).`, {
          suggestions: ["Open the board from this server's own address; behind a TLS proxy, have it send X-Forwarded-Proto"],
        }),
      );
    }
    return next();
  };
}
