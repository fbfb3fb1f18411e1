// A webhook receiver in its own process: answers 204 to every POST after reading its body, and tells
// the benchmark how many it has received when asked ('count').
import http from 'node:http';

let received = 0;
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received++;
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ url: `http://127.0.0.1:${server.address().port}` }));
process.on('message', (m) => { if (m === 'count') process.send({ received }); });
process.on('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
