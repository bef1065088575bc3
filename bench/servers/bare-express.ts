/**
 * The baseline: a bare express 5 server with a trivial auth middleware (one string
 * comparison) answering the same build JSON from memory.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const [key, path, bodyText] = [process.env.BENCH_KEY!, process.env.BENCH_PATH!, process.env.BENCH_BODY!];
const payload = JSON.parse(bodyText);
const app = express();
app.use((req, res, next) => {
  if (req.headers.authorization !== `Bearer ${key}`) return void res.status(401).json({ error: 'unauthorized', code: 'UNAUTHORIZED', details: {} });
  next();
});
app.get('/api/v1/builds/:id', (req, res) => {
  if (`/api/v1/builds/${req.params.id}` !== path) return void res.status(404).end();
  res.json(payload);
});
const server = createServer(app);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
