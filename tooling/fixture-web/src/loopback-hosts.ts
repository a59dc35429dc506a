/** Host names a test may put in a fixture URL; all of them reach the same port. */
export type LoopbackHost = '127.0.0.1' | '127.0.0.2' | 'localhost' | '::1';

/** Every host name `url()` accepts, so tests can iterate over them. */
export const LOOPBACK_HOSTS: readonly LoopbackHost[] = ['127.0.0.1', '127.0.0.2', 'localhost', '::1'];

/** True when `value` is one of the loopback host names the server answers on. */
export function isLoopbackHost(value: string): value is LoopbackHost {
  return (LOOPBACK_HOSTS as readonly string[]).includes(value);
}

/** The `host:port` part of a URL; IPv6 literals need brackets there. */
export function formatAuthority(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** An absolute `http:` URL for `path` on `host`. */
export function buildUrl(host: string, port: number, path: string): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  return `http://${formatAuthority(host, port)}${normalized}`;
}
