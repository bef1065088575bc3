#!/usr/bin/env node
/**
 * The `content-sim` command. Kept tiny on purpose: it turns on Node's compile cache (Node 22.1
 * and later; Node 20 has none and skips it) before the rest of the CLI is loaded, so from the
 * second start on V8 reads the compiled code instead of compiling the bundle again. No
 * top-level await: the single executable's bundle of this file is CommonJS.
 */
import nodeModule from 'node:module';

(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
void import('./serve.js').then(({ main }) => main());
