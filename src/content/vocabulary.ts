/** Word banks that are not sentences: stop words, publishers, people, audiences, months. */

export const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being ' +
    'below between both but by can could did do does doing down during each few for from further get ' +
    'gets had has have having he her here hers him his how i if in into is it its itself just let lets ' +
    'me more most my no nor not now of off on once only or other our ours out over own same she ' +
    'should so some such than that the their theirs them then there these they this those through to ' +
    'too under until up us use using very was we were what when where which while who whom why will ' +
    'with would you your yours write create draft produce explain describe cover covering guide post ' +
    'article blog page piece way ways make makes help helps need needs want wants best top tips tip ' +
    'better good great really announce announcing mention include including within without via per across around towards toward us'
  ).split(' '),
);

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

export interface Publisher {
  name: string;
  domain: string;
  section: string;
}

export const PUBLISHERS: readonly Publisher[] = [
  { name: 'Content Research Institute', domain: 'contentresearch.org', section: 'reports' },
  { name: 'Digital Commerce Review', domain: 'digitalcommercereview.com', section: 'analysis' },
  { name: 'Northfield Analytics', domain: 'northfield-analytics.com', section: 'insights' },
  { name: 'The Industry Ledger', domain: 'industryledger.com', section: 'articles' },
  { name: 'Open Data Collective', domain: 'opendatacollective.org', section: 'datasets' },
  { name: 'Market Pulse Weekly', domain: 'marketpulseweekly.com', section: 'news' },
  { name: 'Consumer Trends Lab', domain: 'consumertrendslab.org', section: 'research' },
  { name: 'Applied Strategy Journal', domain: 'appliedstrategyjournal.org', section: 'papers' },
  { name: 'Brightline Research', domain: 'brightlineresearch.com', section: 'studies' },
  { name: 'Global Benchmark Group', domain: 'globalbenchmarkgroup.com', section: 'benchmarks' },
  { name: 'TechSight Reports', domain: 'techsightreports.com', section: 'reports' },
  { name: 'Small Business Almanac', domain: 'smallbusinessalmanac.org', section: 'guides' },
  { name: 'Harbor Policy Center', domain: 'harborpolicycenter.org', section: 'publications' },
  { name: 'The Practitioner Quarterly', domain: 'practitionerquarterly.com', section: 'features' },
];

export const FIRST_NAMES = [
  'Alex', 'Jordan', 'Priya', 'Samuel', 'Maria', 'Daniel', 'Aisha', 'Chen', 'Elena', 'Marcus',
  'Sofia', 'Tomas', 'Hannah', 'Kenji', 'Olivia', 'Rafael', 'Nadia', 'Oliver',
] as const;

export const LAST_NAMES = [
  'Morgan', 'Patel', 'Okafor', 'Lindqvist', 'Garcia', 'Nakamura', 'Brennan', 'Haddad', 'Kowalski',
  'Reyes', 'Fischer', 'Adeyemi', 'Moreau', 'Sato', 'Walsh', 'Novak', 'Bianchi', 'Larsen',
] as const;

export const EXEC_TITLES = [
  'Chief Executive Officer', 'Founder and CEO', 'Chief Marketing Officer', 'Head of Product',
  'Managing Director', 'Chief Operating Officer', 'Vice President of Strategy',
] as const;

/** Used when the objective names no audience ("... for small businesses"). */
export const DEFAULT_AUDIENCES = [
  'growing teams', 'small businesses', 'marketing teams', 'busy professionals', 'organizations',
  'customers', 'team leads',
] as const;

export const DEFAULT_CITY = 'New York';
