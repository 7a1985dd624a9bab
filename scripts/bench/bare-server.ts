/**
 * The load benchmark's baseline: a bare Fastify route answering a constant, in its own process.
 * It prints its port as one JSON line once it listens.
 */
import Fastify from 'fastify';

const payload = { ok: true, items: [1, 2, 3] };

const app = Fastify();
app.get('/', async () => payload);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);

process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
