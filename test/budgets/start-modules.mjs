/**
 * Preloaded (`node --import`) into a process whose start is measured: every module file it
 * loads, ES modules through a loader hook and CommonJS ones from the require cache, and the built-in modules it loaded, written as
 * JSON to $START_MODULES_OUT when the process gets SIGUSR2 (the process goes on serving).
 */
import { createRequire, register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
register('./start-modules-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });

process.on('SIGUSR2', () => {
  const files = new Set();
  for (const url of loaded) if (url.startsWith('file:')) files.add(fileURLToPath(url));
  for (const file of Object.keys(createRequire(import.meta.url)('node:module')._cache)) files.add(file);
  files.delete(fileURLToPath(import.meta.url));
  const builtins = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice('NativeModule '.length));
  writeFileSync(process.env.START_MODULES_OUT, JSON.stringify({ files: [...files].sort(), builtins }));
});
