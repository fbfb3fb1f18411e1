// The comparison every benchmark measures against: a bare Fastify route.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ status: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ url: `http://127.0.0.1:${app.server.address().port}` });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
