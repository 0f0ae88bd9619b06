// Preloaded (node --require) into servers started by tests: a listen() without a host
// binds 127.0.0.1 instead of every interface, so test servers stay on loopback.
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function patchedListen(...args) {
  const first = args[0];
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    if (first.port !== undefined && !first.host && !first.path)
      args[0] = { ...first, host: '127.0.0.1' };
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};
