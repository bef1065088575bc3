/**
 * Technical documentation: overview, requirements, installation, configuration and usage
 * with code blocks, an options reference table, troubleshooting. Identifiers in code are
 * ASCII slugs of the brand and focus, so code never carries raw user text.
 */
import type { GenContext } from '../context.js';
import { type Block, code, h2, h3, p, ul } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { DETAIL, INSIGHT } from '../phrases.js';
import { camelIdent, slugify } from '../text.js';
import type { KindResult } from './kind.js';

const TITLES = ['{FocusT} Documentation', '{FocusT}: Developer Guide', 'Integrating {FocusT} With {BrandT}', '{FocusT} Reference'];

const OPTIONS: ReadonlyArray<[string, string, string, string]> = [
  ['enabled', 'boolean', 'true', 'Turns {focus} processing on or off.'],
  ['batchSize', 'integer', '50', 'How many records are processed per request.'],
  ['retryLimit', 'integer', '3', 'How many times a failed request is retried before giving up.'],
  ['timeoutMs', 'integer', '10000', 'Request timeout in milliseconds.'],
  ['locale', 'string', '"en-US"', 'Language and region used for generated text and dates.'],
  ['logLevel', 'string', '"info"', 'One of "debug", "info", "warn" or "error".'],
  ['webhookUrl', 'string', 'null', 'Address notified when a run completes.'],
  ['dryRun', 'boolean', 'false', 'Validates the configuration without making changes.'],
];

const PROBLEMS = [
  ['401 Unauthorized', 'check that the API key is set and has not been revoked.'],
  ['Requests time out', 'raise timeoutMs or lower batchSize.'],
  ['Nothing happens', 'make sure enabled is true and dryRun is false.'],
  ['Unexpected language in output', 'set locale explicitly.'],
] as const;

export function writeDoc(ctx: GenContext): KindResult {
  const { prose, premium } = ctx;
  const rng = prose.rng;
  const title = ctx.suiteTitle(prose.pick(TITLES));
  const pkg = `@${slugify(ctx.brand, 30)}/${slugify(ctx.focus, 30)}`;
  const ident = camelIdent(ctx.focus, 'project');
  const envVar = `${slugify(ctx.brand, 20).replace(/-/g, '_').toUpperCase()}_API_KEY`;
  const options = rng.sample(OPTIONS, rng.int(4, 6)).map(([name, type, def, desc]) => [name, type, def, prose.fill(desc)]);
  const sections: string[] = [];
  const section = (heading: string): Block => {
    sections.push(heading);
    return h2(heading);
  };

  const blocks: Block[] = [
    section('Overview'),
    ctx.leadPara(title, [`This documentation explains ${ctx.objective.topicNoun} with ${ctx.brand}: how to install it, configure it and use it day to day.`]),
    ctx.claimPara(prose.paragraph([DETAIL, INSIGHT])),
    section('Requirements'),
    ul(['Node.js 18 or later', `A ${ctx.brand} account with API access`, [`An API key in the `, code(envVar), ' environment variable']]),
    section('Installation'),
    p('Install the package with npm:'),
    { t: 'code', lang: 'bash', code: `npm install ${pkg}` },
    section('Configuration'),
    ctx.claimPara([`Create a configuration file for ${ctx.focus}. Every option has a sensible default, so start with the few you need.`], 1),
    { t: 'code', lang: 'json', code: JSON.stringify({ project: slugify(ctx.focus, 40), ...Object.fromEntries(options.slice(0, 3).map(([n, , d]) => [n, JSON.parse(d!)])) }, null, 2) },
    section('Usage'),
    p('Create a client and start a run:'),
    {
      t: 'code',
      lang: 'ts',
      code: [
        `import { createClient } from '${pkg}';`,
        '',
        `const client = createClient({ apiKey: process.env.${envVar} });`,
        `const run = await client.${ident}.start({ batchSize: 50 });`,
        'console.log(run.status);',
      ].join('\n'),
    },
    ctx.claimPara(prose.paragraph([DETAIL])),
    section('Reference'),
    p('Configuration options:'),
    { t: 'table', head: ['Option', 'Type', 'Default', 'Description'], rows: options.map((row) => row.map(String)) },
    section('Troubleshooting'),
    ul(rng.sample(PROBLEMS, premium ? 4 : 3).map(([problem, fix]) => [code(problem), `: ${fix}`])),
  ];
  const secondary = ctx.secondarySentence();
  blocks.push(ctx.claimPara([...prose.paragraph([INSIGHT]), ...(secondary ? [secondary] : [])]));

  if (premium) {
    blocks.push(section('Best practices'), ul(prose.many(DETAIL, 3)), section('FAQ'));
    blocks.push(h3(`Can I try ${ctx.focus} without changing live data?`), p('Yes. Set dryRun to true to validate everything without side effects.'));
    blocks.push(h3('Where do I report a problem?'), p(`Contact ${ctx.brand} support with the run id and the time of the request.`));
  }
  const library = contentBlocks(ctx.library);
  if (library.length > 0) blocks.push(section('Related resources'), ...library);
  blocks.push(...ctaBlocks(ctx.library));
  if (ctx.claims.remaining > 0) blocks.push(section('Key facts'), ctx.remainingClaims()!);

  return {
    title,
    summary: `Documentation for ${ctx.topic}: installation, configuration, usage and a full options reference.`,
    blocks,
    kindData: { sections },
  };
}
