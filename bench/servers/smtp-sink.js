// A local SMTP listener that takes every message and keeps only a count: the receiving end of the
// campaigns benchmark, in a process of its own so neither side being measured shares its core.
import { SMTPServer } from 'smtp-server';

let received = 0;
const server = new SMTPServer({
  authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false, disableReverseLookup: true,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received++;
      callback();
    });
  },
});
server.on('error', () => {});
server.listen(0, '127.0.0.1', () => process.send({ url: `smtp://127.0.0.1:${server.server.address().port}` }));
process.on('message', (message) => {
  if (message === 'count') process.send({ received });
});
process.on('SIGTERM', () => process.exit(0));
