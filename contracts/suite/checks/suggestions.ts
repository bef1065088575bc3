import type { Check } from '../check.js';
import { newestIds, readBalance } from '../fixtures.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

const TOPICS = 'openapi.yaml: POST /api/v1/suggestions/topics answers count ideas of the kind asked, most interesting first, each with an objective for a build';
const BRIEF = 'openapi.yaml: POST /api/v1/suggestions/brief answers a build request for the target, its estimatedCost and a rationale';
const BRIEF_BUILDS = 'openapi.yaml: the suggested brief is accepted as is by POST /api/v1/builds and costs its estimatedCost';
const KEYWORDS = 'openapi.yaml: POST /api/v1/suggestions/keywords answers at most max keywords of one to three lower-case words, each once, scored 0 to 1 (the best 1), best first, without stop words alone';
const QUOTES = 'openapi.yaml: POST /api/v1/suggestions/quotes keeps verbatim text exactly, copy-edits polish text, and generates count distinct quotes';
const FORCED = 'openapi.yaml: BriefSuggestionRequest: `kind` forces the kind instead of inferring it from the prompt';
export const FREE = 'openapi.yaml: a suggestion stores and charges nothing: after a topic, brief, keyword and quote suggestion the balance, the newest transaction and the newest build are as before';
const CLASS = 'openapi.yaml: suggestions and images share the generation rate-limit class: X-RateLimit-Limit 20, one Remaining for all its routes';

const STOP_WORDS = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'is', 'it', 'of', 'on', 'the', 'to']);
const KEYWORD_TEXT =
  'Cold brew coffee is smooth. To make cold brew at home, steep coarse coffee grounds in cold water for 12 hours. ' +
  'Cold brew keeps for a week. A burr grinder gives even coffee grounds.';

function ok(reply: Reply, rule: string): any {
  expectStatus(reply, 200, rule);
  return reply.json;
}

/** A brief for a plain blog post, the cheapest build there is. */
function brief(s: Session): Promise<{ targetId: string; json: any }> {
  return s.fixtures.shared('a suggested brief', async () => {
    const { id: targetId } = await s.fixtures.target();
    const reply = await s.client.op('suggestBrief', {}, { body: { targetId, prompt: `A short blog post about cold brew at home (${s.config.runId})`, kind: 'blog' } });
    return { targetId, json: ok(reply, BRIEF) };
  });
}

/** The four suggestion helpers (inferred by openapi.yaml; the spec names them, no endpoint). */
export function suggestionChecks(): Check[] {
  return [
    {
      id: 'suggestions.topics',
      title: TOPICS,
      level: 'strict',
      covers: ['suggestTopics'],
      requests: 1,
      run: async (s) => {
        const ideas = ok(await s.client.op('suggestTopics', {}, { body: { phrase: 'cold brew coffee at home', kind: 'how_to', count: 3 } }), TOPICS).data as any[];
        expectEqual(ideas.length, 3, `${TOPICS}: the number of ideas for count 3`);
        expectEqual(ideas.map((i) => i.kind), ['how_to', 'how_to', 'how_to'], `${TOPICS}: the kind of each idea`);
        const interest = ideas.map((i) => i.estimatedInterest);
        expectEqual(interest, [...interest].sort((a, b) => b - a), `${TOPICS}: estimatedInterest, most interesting first`);
        expectThat(ideas.every((i) => i.objective.trim().length > 0 && i.title.trim().length > 0), `${TOPICS}: each idea has a title and an objective`);
      },
    },
    {
      id: 'suggestions.brief',
      title: BRIEF,
      level: 'strict',
      covers: ['suggestBrief'],
      requests: 3,
      run: async (s) => {
        const { targetId, json } = await brief(s);
        expectEqual([json.brief.targetId, json.brief.kind], [targetId, 'blog'], `${BRIEF}: the brief's targetId and the kind asked`);
        expectThat(Number.isInteger(json.estimatedCost) && json.estimatedCost >= 1, `${BRIEF}: estimatedCost is a whole number of tokens: got ${json.estimatedCost}`);
        expectThat(json.rationale.length > 0, `${BRIEF}: the rationale says why`);
        // A prompt that says blog post, and another kind asked: the kind asked wins over the one the prompt suggests.
        const forced = ok(await s.client.op('suggestBrief', {}, { body: { targetId, prompt: `A short blog post about cold brew at home (${s.config.runId})`, kind: 'how_to' } }), BRIEF);
        expectEqual(forced.brief.kind, 'how_to', `${FORCED}: the brief's kind for a blog-post prompt with kind how_to`);
      },
    },
    {
      id: 'suggestions.brief-builds',
      title: BRIEF_BUILDS,
      level: 'strict',
      groups: ['spend'],
      covers: ['suggestBrief', 'createBuild'],
      requests: 6,
      run: async (s) => {
        const { json } = await brief(s);
        s.spend(json.estimatedCost, 'a build of the suggested brief');
        const before = await readBalance(s);
        const created = await s.client.op('createBuild', {}, { body: json.brief });
        expectStatus(created, 202, BRIEF_BUILDS);
        const build = await s.client.op('getBuild', { buildId: created.json.buildId });
        expectEqual(build.json.build.cost, json.estimatedCost, `${BRIEF_BUILDS}: the build's cost`);
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, json.estimatedCost, `${BRIEF_BUILDS}: the balance falls by estimatedCost`);
      },
    },
    {
      id: 'suggestions.keywords',
      title: KEYWORDS,
      level: 'strict',
      covers: ['extractKeywords'],
      requests: 1,
      run: async (s) => {
        const keywords = ok(await s.client.op('extractKeywords', {}, { body: { text: KEYWORD_TEXT, max: 5 } }), KEYWORDS).data as Array<{ keyword: string; score: number }>;
        expectThat(keywords.length > 0 && keywords.length <= 5, `${KEYWORDS}: 1 to max (5) keywords: got ${keywords.length}`);
        const scores = keywords.map((k) => k.score);
        expectEqual(scores, [...scores].sort((a, b) => b - a), `${KEYWORDS}: scores, best first`);
        expectEqual(scores[0], 1, `${KEYWORDS}: the best score`);
        const words = keywords.map((k) => k.keyword);
        expectEqual(new Set(words).size, words.length, `${KEYWORDS}: each keyword once`);
        const bad = words.filter((w) => w !== w.toLowerCase() || w.split(/\s+/).length > 3 || STOP_WORDS.has(w));
        expectEqual(bad, [], `${KEYWORDS}: keywords that are not one to three lower-case words, or only a stop word`);
        expectThat(words.includes('cold brew'), `${KEYWORDS}: "cold brew", four times in the text, is among them: got ${JSON.stringify(words)}`);
      },
    },
    {
      id: 'suggestions.quotes',
      title: QUOTES,
      level: 'strict',
      covers: ['suggestQuotes'],
      requests: 3,
      run: async (s) => {
        const ask = async (body: Record<string, unknown>) => ok(await s.client.op('suggestQuotes', {}, { body: { speaker: 'Dana Ortiz', title: 'CEO', topic: 'our cold brew kit', ...body } }), QUOTES).data as any[];
        const kept = 'We made cold brew simple, and we think you will love it.';
        const [verbatim] = await ask({ mode: 'verbatim', text: kept });
        expectEqual([verbatim?.text, verbatim?.speaker, verbatim?.mode], [kept, 'Dana Ortiz', 'verbatim'], `${QUOTES}: verbatim (text, speaker, mode)`);
        const sloppy = 'we are very very excited  to launch this ,it is really important for us';
        const [polished] = await ask({ mode: 'polish', text: sloppy });
        const text = String(polished?.text);
        expectThat(text !== sloppy && /^[A-Z]/.test(text) && /[.!?]$/.test(text) && !/\s{2}|\s,/.test(text), `${QUOTES}: a polished quote starts with a capital, ends with a stop, has no double space nor space before a comma: got ${JSON.stringify(text)}`);
        const generated = await ask({ mode: 'generate', count: 2 });
        expectEqual(generated.map((q) => q.mode), ['generate', 'generate'], `${QUOTES}: count 2 generated quotes (modes)`);
        expectThat(generated[0].text !== generated[1].text, `${QUOTES}: the generated quotes are distinct`);
      },
    },
    {
      id: 'suggestions.free',
      title: FREE,
      level: 'strict',
      covers: ['suggestTopics', 'suggestBrief', 'extractKeywords', 'suggestQuotes'],
      requests: 7,
      run: async (s) => {
        const { id: targetId } = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'suggestTopics', 4);
        const state = async () => ({ balance: await readBalance(s), transaction: (await newestIds(s, 'listTokenTransactions', 1))[0]?.id ?? null, build: (await newestIds(s, 'listBuilds', 1))[0]?.id ?? null });
        const before = await state();
        ok(await s.client.op('suggestTopics', {}, { body: { targetId, count: 1 } }), FREE);
        ok(await s.client.op('suggestBrief', {}, { body: { targetId, prompt: `A free brief (${s.config.runId})` } }), FREE);
        ok(await s.client.op('extractKeywords', {}, { body: { text: KEYWORD_TEXT, max: 2 } }), FREE);
        ok(await s.client.op('suggestQuotes', {}, { body: { speaker: 'Dana Ortiz', topic: 'our cold brew kit', mode: 'generate' } }), FREE);
        expectEqual(await state(), before, `${FREE}: balance, newest transaction and newest build`);
      },
    },
    {
      id: 'suggestions.generation-class',
      title: CLASS,
      level: 'strict',
      covers: ['extractKeywords', 'listImages', 'suggestTopics'],
      requests: 5,
      run: async (s) => {
        await s.client.freshWindow(); // a new window, in which the key's generation bucket is the tightest
        const calls = [
          await s.client.op('extractKeywords', {}, { body: { text: KEYWORD_TEXT, max: 3 } }),
          await s.client.op('listImages', {}, { query: { limit: '1' } }),
          await s.client.op('suggestTopics', {}, { body: { phrase: 'cold brew', count: 1 } }),
        ];
        for (const reply of calls) expectStatus(reply, 200, CLASS);
        expectEqual(calls.map((r) => Number(r.headers['x-ratelimit-limit'])), [20, 20, 20], `${CLASS}: X-RateLimit-Limit of a suggestion, an image route, a suggestion`);
        const remaining = calls.map((r) => Number(r.headers['x-ratelimit-remaining']));
        const first = remaining[0] as number;
        expectEqual(remaining, [first, first - 1, first - 2], `${CLASS}: X-RateLimit-Remaining over the three calls`);
      },
    },
  ];
}
