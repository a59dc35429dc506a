// Preloaded (`node --import`) into every README example the install test runs: the examples name
// public sites, and the test must not reach them. Name lookups answer only for loopback names and
// sockets connect only to loopback addresses; anything else fails as an offline machine would.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);
const isLoopbackAddress = (address) =>
  net.isIP(address) !== 0 && (/^127\./.test(address) || address === '::1');
const offline = (hostname) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (the README test allows loopback only)`), {
    code: 'ENOTFOUND',
    hostname,
  });

const lookup = dns.lookup;
dns.lookup = function loopbackLookup(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  if (!LOOPBACK_NAMES.has(hostname) && !isLoopbackAddress(hostname)) {
    process.nextTick(() => done(offline(hostname)));
    return {};
  }
  return lookup.call(this, hostname, options, callback);
};
const promiseLookup = dns.promises.lookup;
dns.promises.lookup = async function loopbackPromiseLookup(hostname, options) {
  if (!LOOPBACK_NAMES.has(hostname) && !isLoopbackAddress(hostname)) throw offline(hostname);
  return promiseLookup.call(this, hostname, options);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function loopbackConnect(...args) {
  const options =
    typeof args[0] === 'object' && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
  const host = options.host ?? 'localhost';
  if (options.path === undefined && !LOOPBACK_NAMES.has(host) && !isLoopbackAddress(host)) {
    process.nextTick(() => this.destroy(offline(host)));
    return this;
  }
  return connect.apply(this, args);
};
syncBuiltinESMExports();
