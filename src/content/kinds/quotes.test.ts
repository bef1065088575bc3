import { describe, expect, it } from 'vitest';
import { polishQuote } from './quotes.js';

describe('polishQuote', () => {
  it.each([
    ['we are very happy with the results', 'We are delighted with the results.'],
    ['This is really important for our customers.', 'This is essential for our customers.'],
    ['i think it just works', 'I think it works.'],
    ['Great day ,and a great team', 'Great day, and a great team.'],
    ['We did it!!! Next stop,Europe', 'We did it! Next stop, Europe.'],
    ['"the the best bakery in town."', 'The best bakery in town.'],
    ['  Spaces\n everywhere   here  ', 'Spaces everywhere here.'],
    ['it works. we love it', 'It works. We love it.'],
  ])('%j -> %j', (input, expected) => {
    expect(polishQuote(input)).toBe(expected);
  });

  it('leaves a clean quote as it is', () => {
    const clean = 'Our bakers start at four every morning, and it shows.';
    expect(polishQuote(clean)).toBe(clean);
  });
});
