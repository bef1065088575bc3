/**
 * The floor: bare node:http with a trivial auth check (one string comparison) answering the
 * same build JSON from memory. Nothing can serve these bytes for less.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [key, path, bodyText] = [process.env.BENCH_KEY!, process.env.BENCH_PATH!, process.env.BENCH_BODY!];
const body = Buffer.from(bodyText);
const server = createServer((req, res) => {
  if (req.headers.authorization !== `Bearer ${key}`) return void res.writeHead(401).end();
  if (req.url !== path) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
