/**
 * DNS-rebinding protection: the Host header must name this server, and a browser's Origin (when
 * sent) must be one of the same hostnames. A page on evil.example resolving to 127.0.0.1 is refused.
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
    if (origin !== undefined) {
      const o = hostnameOf(origin, true);
      if (!o || !allowed.has(o)) {
        return errorResponse(
          new CairnError('FORBIDDEN', `Origin "${origin}" may not call this server (cross-site requests are refused).`, {
            suggestions: ['Serve the page from this server, or add its hostname with CAIRN_ALLOWED_HOSTS'],
          }),
        );
      }
    }
    return next();
  };
}
