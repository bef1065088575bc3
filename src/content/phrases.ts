/**
 * Sentence templates shared by the prose kinds. Templates never make a verb agree with
 * {focus} or {topic}: those come from free text and may be singular, plural or a clause.
 */

export const TOPIC_INTROS = [
  'In this article, we look at {topic} and what it means in practice.',
  'This piece covers {topic}, with practical ideas you can use straight away.',
  'Below, you will find practical notes on {topic}, from first principles to everyday practice.',
  'Here is what we have learned about {topic}, and how to put it to work.',
  'Whether you are just starting out or refining an existing approach, this look at {topic} is for you.',
] as const;

export const CONTEXT = [
  '{Audience} are paying closer attention to {focus} than ever before.',
  'Over the past few years, conversations about {focus} have moved from the margins to the mainstream.',
  'For many {audience}, {focus} used to be an afterthought; today it shapes everyday decisions.',
  'Interest in {focus} is not a passing trend, and the reasons are easy to see.',
  'It is easy to underestimate how much the approach to {focus} shapes the results {audience} see.',
  'The conversation around {focus} has matured, and so have expectations.',
  'Most {audience} already know the value of {focus}; the harder question is where to begin.',
  'Ask ten people to define {focus} and you will get ten different answers.',
  'Budgets are tight, attention is scarce, and every effort on {focus} has to earn its place.',
  'Few topics generate as many questions from {audience} as {focus}.',
  'The gap between talking about {focus} and doing it well is wider than it looks.',
  'Getting {focus} right rarely comes down to a single decision.',
  'Expectations around {focus} keep rising, and standing still is not an option.',
] as const;

export const INSIGHT = [
  'The teams that get the most from {focus} treat it as a habit, not a project.',
  'Clarity beats complexity: a simple plan that people follow outperforms a perfect plan that nobody reads.',
  'Small, steady improvements compound faster than most people expect.',
  'The best results usually come from listening before acting.',
  'What gets measured gets attention, and what gets attention improves.',
  'Consistency matters more than intensity when it comes to {focus}.',
  'Good intentions are not a strategy; a written plan with owners and dates is.',
  'The details that feel minor on day one tend to decide the outcome by month six.',
  'Progress with {focus} is rarely linear, and that is perfectly normal.',
  'The right question is not whether to invest in {focus}, but how to do it sustainably.',
  'Quality wins over volume almost every time.',
  'People remember how something made them feel long after they forget the specifics.',
  'The simplest version that works is usually the right place to start.',
] as const;

export const ADVICE = [
  'Start small: pick one area where {focus} can make a visible difference and build from there.',
  'Write down what success looks like before you change anything.',
  'Involve the people who will live with the result early, not after the fact.',
  'Keep a short log of what you try and what happens, so the next round goes faster.',
  'Resist the urge to do everything at once.',
  'Review progress every {weeks} weeks and adjust based on what you learn.',
  'Set one clear goal for {focus} and make sure everyone involved can repeat it.',
  'Use the tools you already have before buying new ones.',
  'Ask {audience} directly what they need; the answers are often simpler than expected.',
  'Turn recurring tasks into a checklist so quality does not depend on memory.',
  'Set aside a fixed slot each week for {focus}, and protect it.',
  'Share early drafts, because feedback is cheapest before anything is final.',
  'Pair every change with a way to measure its effect.',
  'Retire what is not working, even if it took effort to build.',
] as const;

export const EXAMPLE = [
  'Consider a team that spent months perfecting a plan for {focus} without testing a single idea with real people.',
  'A common pattern: early wins arrive quickly, then progress stalls until the process is written down.',
  'Picture two teams with the same budget: one tests small ideas every week, the other waits for the perfect launch, and the first one usually wins.',
  'We often see {audience} overcomplicate {focus} at the start and simplify it later; starting simple saves that detour.',
  'One practical example is a monthly review where the team looks at a single number and agrees on a single change.',
  'Think of {focus} like a garden: a little attention every week beats a big effort once a year.',
  'Teams that give {focus} a clear owner tend to move faster than those that share responsibility loosely.',
  'A short pilot with a handful of {audience} will teach you more than a long planning document.',
] as const;

export const DETAIL = [
  'Each decision about {focus} involves trade-offs between speed, cost and quality.',
  'The most useful first step is often an honest look at where things stand today.',
  'Expectations differ from one group of {audience} to the next, so one size rarely fits all.',
  'Simple language and clear ownership make almost every initiative easier to run.',
  'Small experiments reduce risk and make it easier to win support.',
  'Feedback loops matter: the shorter they are, the faster you learn.',
  'A shared vocabulary helps everyone understand what {focus} involves and why it matters.',
  'The real cost of {focus} is usually time and attention, not money.',
  'Progress is easier to sustain when it is visible to everyone involved.',
  'It helps to separate what is urgent from what is important.',
  'Long-term results depend on routines more than on one-off campaigns.',
  'Good documentation turns individual know-how into team knowledge.',
] as const;

export const BRAND_LINES = [
  'At {brand}, we have seen this first-hand.',
  'That is the approach {brand} takes with every project.',
  'It is also why {brand} keeps {focus} at the centre of its work.',
  'Our own experience at {brand} points the same way.',
  'This is a lesson {brand} learned early, and it still guides how we work.',
] as const;

export const CLOSING = [
  'Getting {focus} right does not have to be complicated.',
  'Start with one step from this article, and build from there.',
  'The sooner you begin, the sooner the results start to compound.',
  'If you take away one idea, make it this: consistency wins.',
  'With a clear goal and a simple routine, the work on {focus} becomes a strength rather than a worry.',
  'Whatever your starting point, the next step is smaller than you think.',
] as const;

export const HEADINGS = [
  'Why {focus} deserves your attention',
  'Putting {focus} into practice',
  'Getting started with {focus}',
  'Common mistakes with {focus} and how to avoid them',
  'Measuring the impact of {focus}',
  'What the research says about {focus}',
  'Tools and habits that make {focus} easier',
  'What comes next for {focus}',
  'A simple framework for {focus}',
  'Lessons from teams who get {focus} right',
  'How {audience} can make {focus} work',
  'Turning {focus} into a routine',
  'Questions to ask before you begin',
  'Making the case for {focus} internally',
] as const;

/** The angle a page takes: suites give each page its own, so every page is a distinct article. */
export interface Angle {
  id: string;
  label: string;
  titles: readonly string[];
  headings: readonly string[];
}

export const ANGLES: readonly Angle[] = [
  { id: 'essentials', label: 'The Essentials', titles: ['{FocusT}: The Essentials', 'Everything You Need to Know About {FocusT}'], headings: ['The real meaning of {focus}', 'The building blocks of {focus}'] },
  { id: 'getting-started', label: 'Getting Started', titles: ['Getting Started With {FocusT}', 'Your First Steps With {FocusT}'], headings: ['Where to begin with {focus}', 'Your first thirty days'] },
  { id: 'mistakes', label: 'Common Mistakes', titles: ['{num} Common Mistakes With {FocusT} (and How to Avoid Them)', 'What Most People Get Wrong About {FocusT}'], headings: ['The mistakes we see most often', 'How to recover when things go wrong'] },
  { id: 'strategy', label: 'Long-Term Strategy', titles: ['A Long-Term Strategy for {FocusT}', 'How to Plan for {FocusT} in {year}'], headings: ['Setting goals that last', 'Building a plan people will follow'] },
  { id: 'measuring', label: 'Measuring Results', titles: ['How to Measure the Impact of {FocusT}', 'Proving the Value of {FocusT}'], headings: ['Choosing the right measures', 'Reporting results people trust'] },
  { id: 'trends', label: 'Trends to Watch', titles: ['{FocusT} in {year}: Trends Worth Watching', 'The Future of {FocusT}'], headings: ['The shifts already under way', 'What to prepare for next'] },
  { id: 'lessons', label: 'Lessons From Practice', titles: ['Lessons From Teams Who Get {FocusT} Right', '{FocusT} in Practice: Real-World Lessons'], headings: ['What successful teams do differently', 'Stories from the field'] },
  { id: 'tools', label: 'Tools and Techniques', titles: ['Tools and Techniques for {FocusT}', 'The {FocusT} Toolkit'], headings: ['Choosing tools that fit', 'Techniques worth learning'] },
  { id: 'myths', label: 'Myths and Facts', titles: ['Myths and Facts About {FocusT}', '{num} Myths About {FocusT}, Debunked'], headings: ['The myths that hold teams back', 'What the evidence actually shows'] },
  { id: 'advanced', label: 'Beyond the Basics', titles: ['Beyond the Basics: Advanced Ideas for {FocusT}', 'Taking {FocusT} to the Next Level'], headings: ['When the basics are in place', 'Scaling what already works'] },
  { id: 'budget', label: 'On a Budget', titles: ['Making {FocusT} Work on a Tight Budget', '{FocusT} Without Breaking the Bank'], headings: ['Where to spend and where to save', 'Free and low-cost options'] },
  { id: 'playbook', label: 'Quick-Start Playbook', titles: ['A Quick-Start Playbook for {FocusT}', 'The {FocusT} Playbook'], headings: ['The playbook at a glance', 'Putting the playbook to work'] },
];
