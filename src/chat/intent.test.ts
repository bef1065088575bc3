import { describe, expect, it } from 'vitest';
import { detectIntent } from './intent.js';

describe('detectIntent', () => {
  it.each([
    ['Hello!', 'greeting'],
    ['Thanks a lot', 'thanks'],
    ['Can you write three headlines about espresso?', 'headline'],
    ['Any topic ideas for spring?', 'ideas'],
    ['Which call to action fits the newsletter?', 'cta'],
    ['What tone should we use?', 'voice'],
    ['Who are you?', 'about'],
    ['What is a flat white?', 'define'],
    ['Write an intro about latte art', 'draft'],
    ['How often should we post?', 'question'],
    ['We open a second shop in May', 'statement'],
    // The first rule that matches wins: a headline request that says "write" is still one.
    ['Write me a headline', 'headline'],
    // A greeting that carries a request is the request.
    ['Hi, can you draft a paragraph on cold brew?', 'draft'],
  ])('%s → %s', (message, intent) => {
    expect(detectIntent(message)).toBe(intent);
  });
});
