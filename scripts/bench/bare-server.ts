/**
 * The load benchmark's baseline: a bare Fastify route answering a constant, in its own process.
 * With BARE_ANSWER_FILE it answers that file's bytes instead, as they are (BARE_ANSWER_ENCODING
 * names their Content-Encoding): a bare route carrying an endpoint's own answer, to tell what its
 * bytes cost apart from what the shop does to produce them. It prints its port as one JSON line
 * once it listens.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const payload = { ok: true, items: [1, 2, 3] };
const answerFile = process.env.BARE_ANSWER_FILE;
const answer = answerFile ? readFileSync(answerFile) : null;
const encoding = process.env.BARE_ANSWER_ENCODING;

const app = Fastify();
app.get('/', async (_request, reply) => {
  if (!answer) return payload;
  reply.type('application/json; charset=utf-8');
  if (encoding) reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
  return answer;
});

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : null })}\n`);

process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
