#!/usr/bin/env node
/**
 * `content-contracts [command] …` (or `npm run contracts -- …`): the kit's one command. With no
 * command it runs the contract suite (`suite/`); `proxy`, `drift`, `diff` and `scene` are the
 * other tools, each a folder with its entry point in `index.ts`, sharing `shared/`.
 */
import { runDiffCommand } from './diff/index.js';
import { runDriftCommand } from './drift/index.js';
import { runProxyCommand } from './proxy/index.js';
import { runSceneCommand } from './scene/index.js';
import { runSuiteCommand } from './suite/index.js';

const COMMANDS = new Map<string, (argv: string[]) => number | Promise<number>>([
  ['diff', runDiffCommand],
  ['proxy', runProxyCommand],
  ['drift', runDriftCommand],
  ['scene', runSceneCommand],
]);

const [name = '', ...rest] = process.argv.slice(2);
const command = COMMANDS.get(name);
process.exitCode = await (command ? command(rest) : runSuiteCommand(process.argv.slice(2)));
