// Preloaded (node --import) into a CLI a test tells to bind 0.0.0.0: it listens on 127.0.0.1
// instead, so that tests never listen beyond loopback while the server believes the bind it was given.
import { Server } from 'node:net'

const listen = Server.prototype.listen
Server.prototype.listen = function (...args) {
  if (args[1] === '0.0.0.0') args[1] = '127.0.0.1'
  return listen.apply(this, args)
}
