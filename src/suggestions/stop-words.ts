/**
 * English function words and fillers that never make a keyword. Kept apart from the
 * content generator's list, which also drops words such as "best", "tips" or "guide":
 * those are worth keeping in SEO keywords ("best espresso grinder").
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above across after again against all almost along already also although always am among an and another any ' +
    'anybody anyone anything anyway anywhere are aren\'t around as at away back be became because become becomes been ' +
    'before began behind being below beside besides between beyond both but by came can can\'t cannot could couldn\'t did ' +
    'didn\'t do does doesn\'t doing don\'t done down during each either else enough etc even ever every everyone everything ' +
    'few for from further get gets getting give given gives go goes going gone got had hadn\'t has hasn\'t have haven\'t having ' +
    'he her here hers herself him himself his how however i i\'m i\'ve if in indeed instead into is isn\'t it it\'s its itself ' +
    'just keep kept know last least less let let\'s like likely made make makes many may maybe me might mine more most mostly ' +
    'much must my myself near need needs neither never new next no nobody none nor not nothing now of off often on once one ' +
    'ones only onto or other others otherwise our ours ourselves out over own per perhaps put quite rather really said same ' +
    'say says see seem seems several shall she should shouldn\'t since so some somebody someone something sometimes somewhere ' +
    'still such sure take than that that\'s the their theirs them themselves then there there\'s these they they\'re thing ' +
    'things this those though through throughout thus to together too took toward towards under until up upon us use used ' +
    'uses using usually very via want wants was wasn\'t way ways we we\'re well went were weren\'t what what\'s whatever when ' +
    'whenever where whether which while who whoever whole whom whose why will with within without won\'t would wouldn\'t yes ' +
    'yet you you\'re you\'ve your yours yourself yourselves'
  ).split(' '),
);

/** Lower case, curly apostrophes made straight: the form the stop list and keyword keys use. */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/\u2019/g, "'");
}

export function isStopWord(word: string): boolean {
  return ENGLISH_STOP_WORDS.has(normalizeWord(word));
}

/** A crude singular, so "grinders" and "grinder" count as one keyword; short words stay. */
export function singular(word: string): string {
  if (word.length <= 3 || /(?:ss|us|is|ous)$/.test(word)) return word;
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Words of a text: letters and digits with inner apostrophes and hyphens. */
export const WORD_PATTERN = /[\p{L}\p{N}]+(?:['\u2019-][\p{L}\p{N}]+)*/gu;

/** Content words of a text, normalised and singular: what keyword matching compares. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD_PATTERN)) {
    const lower = normalizeWord(word);
    if (lower.length < 3 || ENGLISH_STOP_WORDS.has(lower) || /^\d+$/.test(lower)) continue;
    out.push(singular(lower));
  }
  return out;
}
