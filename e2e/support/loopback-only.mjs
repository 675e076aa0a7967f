// Preloaded (NODE_OPTIONS=--import) into a site build the tests run: any connection to an address
// other than this machine's loopback is refused and reported on stderr, so a build that would
// reach the network (telemetry, a font or update check) is seen, not silently allowed.
import net from 'node:net';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(?:\.\d{1,3}){3})$/i;
const connect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = args[0];
  const options = first !== null && typeof first === 'object' ? (Array.isArray(first) ? first[0] : first) : null;
  const host = options ? options.host : typeof args[1] === 'string' ? args[1] : undefined;
  const path = options ? options.path : typeof first === 'string' && !/^\d+$/.test(first) ? first : undefined;
  if (path === undefined && host !== undefined && !LOOPBACK.test(String(host))) {
    process.stderr.write(`loopback-only: refused a connection to ${host}\n`);
    process.nextTick(() => this.destroy(new Error(`loopback-only: ${host} is not on this machine`)));
    return this;
  }
  return connect.apply(this, args);
};
