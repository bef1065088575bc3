/**
 * Copies the dashboard, and the API reference's browser bundle (Scalar, MIT) into dist/web, so the installed
 * package serves /docs offline without Scalar's dependency tree: it is a build-time
 * dependency only.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(`${root}dist/web`, { recursive: true });
cpSync(`${root}node_modules/@scalar/api-reference/dist/browser/standalone.js`, `${root}dist/web/scalar.js`);
// The dashboard: plain ES modules and a stylesheet, served as they are written.
cpSync(`${root}src/web/dashboard`, `${root}dist/web/dashboard`, { recursive: true });
