import type { Scenario } from './types.js';

/**
 * Ready scenarios shipped with the package: `content-sim serve --scenario new-user`, or
 * `createSimulator({ scenarios: [shippedScenarios['new-user']] })`. Each is a plain scenario,
 * as a file would state it (docs/reference/scenarios.md).
 */
const acme = { name: 'Acme Robotics', slug: 'acme', description: 'Industrial robots for small workshops.', brandKit: { voice: 'plain and practical', tone: 'warm' } };

export const shippedScenarios = {
  'new-user': {
    scenario: 'new-user',
    description: 'A user who has just signed up: the starting balance, one key, nothing made yet.',
    accounts: [{ name: 'user', balance: 100 }],
  },
  'empty-balance': {
    scenario: 'empty-balance',
    description: 'A user with a target and no tokens left: the next build is refused with 402 INSUFFICIENT_TOKENS.',
    accounts: [{ name: 'user', balance: 0, targets: [acme] }],
  },
  'build-in-every-state': {
    scenario: 'build-in-every-state',
    description: 'One build at each status a poller can see, on a frozen clock: pending, each stage, completed, and failed in critiquing.',
    accounts: [
      {
        name: 'user',
        balance: 20,
        targets: [acme],
        builds: [
          { name: 'pending', target: 'acme', kind: 'blog', objective: 'Why small workshops automate', status: 'pending' },
          { name: 'researching', target: 'acme', kind: 'news', objective: 'Acme opens a second factory', status: 'researching' },
          { name: 'drafting', target: 'acme', kind: 'how_to', objective: 'How to calibrate a robot arm', status: 'drafting' },
          { name: 'critiquing', target: 'acme', kind: 'email', objective: 'Spring offer for workshop owners', status: 'critiquing' },
          { name: 'merging', target: 'acme', kind: 'web_page', objective: 'The Acme service plans', status: 'merging' },
          { name: 'completed', target: 'acme', kind: 'press_release', objective: 'Acme launches the R2 arm', status: 'completed' },
          { name: 'failed', target: 'acme', kind: 'blog', objective: 'Robots and safety rules', status: 'failed', failedAt: 'critiquing' },
        ],
      },
    ],
  },
  'full-library': {
    scenario: 'full-library',
    description: 'A brand with a full library, finished deliverables shared and read aloud, images, a chat and a purchase history.',
    accounts: [
      {
        name: 'user',
        balance: 250,
        purchases: [{ bundle: 'starter' }],
        targets: [
          {
            ...acme,
            library: [
              { name: 'Book a demo', type: 'cta', content: 'Book a 20-minute demo', url: 'https://acme.example/demo' },
              { name: 'Cobot', type: 'glossary_term', content: 'A robot built to work beside people.' },
              { name: 'R2 arm', type: 'product_blurb', content: 'A six-axis arm that a workshop sets up in an afternoon.' },
              { name: 'Logo', type: 'brand_asset', content: 'The Acme logo, dark on light.', url: 'https://acme.example/logo.svg' },
            ],
          },
        ],
        builds: [
          {
            name: 'launch',
            target: 'acme',
            kind: 'press_release',
            objective: 'Acme launches the R2 arm',
            status: 'completed',
            libraryItems: ['R2 arm', 'Book a demo'],
            shares: [{ name: 'launch-link' }],
            audio: [{ name: 'launch-audio', voice: 'aria' }],
          },
          { name: 'guide', target: 'acme', kind: 'how_to', objective: 'How to set up the R2 arm', status: 'completed', libraryItems: ['Cobot'] },
          { name: 'site', target: 'acme', kind: 'web_page', objective: 'Acme product pages', buildType: 'suite', pages: 3, status: 'completed' },
        ],
        images: [{ name: 'hero', prompt: 'A robot arm in a bright workshop', style: 'photo', mood: 'energetic' }],
        chats: [{ name: 'ideas', target: 'acme', messages: ['Suggest a blog post about the R2 arm'] }],
      },
    ],
  },
  'rate-limited-key': {
    scenario: 'rate-limited-key',
    description: "A key that has spent its minute's requests: its calls answer 429 RATE_LIMITED until the account's clock moves a minute on; a second key still works.",
    accounts: [
      {
        name: 'user',
        balance: 100,
        keys: [
          { name: 'limited', scopes: ['svc:read', 'svc:write'], rateLimited: true },
          { name: 'spare', scopes: ['svc:read'] },
        ],
      },
    ],
  },
} satisfies Record<string, Scenario>;

export type ShippedScenarioName = keyof typeof shippedScenarios;
