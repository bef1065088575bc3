/**
 * Sentences of openapi.yaml's descriptions not yet mined into a rule: each is unverified (the
 * source-coverage test prints how many), and a sentence that is neither here nor taken by a
 * mapping of source-map.ts fails the test. Rewritten with CONTRACT_SOURCES_WRITE=1.
 */
export const UNMINED_DESCRIPTIONS: readonly string[] = [
  "Any of an item's fields but its type; `url` null removes the link (not allowed for a CTA or a brand asset).",
  "Any part of the brand kit; what is left out takes its default.",
  "Idempotent while the grant is remembered; 404 for a grant of another account or one already forgotten.",
  "Public: needs no key; views count per client address (60 a minute, then 429; loopback clients spared), which slows down anyone guessing share tokens.",
  "Reusable content of the target: a call to action (`cta`: `content` is its label, `url` where it leads), a glossary term (`glossary_term`: `name` is the term, `content` its definition), a product blurb (`product_blurb`) or a brand asset (`brand_asset`: `content` describes it, `url` is where the file is).",
  "Speaking pace; pauses at punctuation come on top.",
  "Structure of an image set; one entry per entry of `images`, in the same order.",
  "The client's registered name; null once the client is forgotten.",
  "The release date; by default the day the build completes.",
  "The structure particular to the kind (steps of a how-to, subject of an email, ...), one `*KindData` schema per kind, given by the variant of `Deliverable` for the kind.",
  "The text's key words and phrases (one to three words), stop words removed, each counted once whatever its case or plural, scored from 0 to 1 (the best is 1) and sorted by score.",
  "Topic ideas for a target (from its name, description and SEO keywords) or for a seed phrase, or both: a title, the angle it takes, the content kind that suits it, an estimated interest (0 to 100, moving from day to day like a trend) and an objective ready for a build.",
  "Without `mode`, the target's `defaultQuoteMode` applies; a quote without `text` is generated.",
  "`name` names it (a glossary term's term, a product's name); `content` is what builds use (a CTA's label, a term's definition, a blurb, an asset's description).",
];
