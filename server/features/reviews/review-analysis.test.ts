import { describe, expect, test } from 'vitest';
import { ReviewAnalysis } from '#common/contracts/reviews.ts';
import { seedReviews } from '#seed/reviews.ts';
import { analyseReviews, type ReviewText } from './review-analysis.ts';

const reviewsOf = (product: string): ReviewText[] => seedReviews.filter((review) => review.product === product);
const seedProducts = [...new Set(seedReviews.map((review) => review.product))];
const fountain = reviewsOf('desktop-fountain');
const rated = (...ratings: number[]): ReviewText[] => ratings.map((rating) => ({ rating, title: '', content: '' }));
const review = (rating: number, title: string, content = ''): ReviewText => ({ rating, title, content });
/** "Soothing sound (16 reviews)" -> "soothing sound". */
const phraseOf = (label: string) => label.replace(/ \(\d+ reviews?\)$/, '').toLowerCase();
const allPhrases = (analysis: ReviewAnalysis) => [...analysis.commonPraises, ...analysis.commonConcerns].map(phraseOf);

/** The rules every analysis keeps, whatever the input. */
function expectWellFormed(analysis: ReviewAnalysis) {
  expect(ReviewAnalysis.parse(analysis)).toEqual(analysis);
  expect(analysis.commonPraises.length).toBeLessThanOrEqual(5);
  expect(analysis.commonConcerns.length).toBeLessThanOrEqual(5);
  expect(analysis.keyInsights.length).toBeLessThanOrEqual(4);
  expect(analysis.summary).toMatch(/^[A-Z].*\.$/);
  for (const text of [
    analysis.summary,
    ...analysis.commonPraises,
    ...analysis.commonConcerns,
    ...analysis.keyInsights,
  ]) {
    expect(text).not.toMatch(/NaN|undefined|Infinity|null|\s{2}|[<>]/);
  }
  for (const label of [...analysis.commonPraises, ...analysis.commonConcerns]) {
    expect(label).toMatch(/^[A-Z][A-Za-z' -]* \((1 review|[1-9]\d* reviews)\)$/);
  }
}

describe('recommendation score', () => {
  test('is the share of reviews rated 4 or more, as a rounded whole percent', () => {
    expect(analyseReviews(rated(5, 4, 3.9, 1)).recommendationScore).toBe(50);
    expect(analyseReviews(rated(4, 4, 4)).recommendationScore).toBe(100);
    expect(analyseReviews(rated(3.9, 3.9)).recommendationScore).toBe(0);
    expect(analyseReviews(rated(5, 5, 1)).recommendationScore).toBe(67);
    expect(analyseReviews(rated(4, 1, 1)).recommendationScore).toBe(33);
    expect(analyseReviews(rated(4, 1, 1, 1, 1, 1, 1, 1)).recommendationScore).toBe(13);
    expect(analyseReviews(rated(4, 4, 4, 4, 4, 4, 4, 1)).recommendationScore).toBe(88);
    expect(analyseReviews(rated(4.0, 3.99)).recommendationScore).toBe(50);
  });

  test('the demo fountain: 60 of its 70 reviews rate it 4 or more', () => {
    expect(fountain).toHaveLength(70);
    expect(analyseReviews(fountain).recommendationScore).toBe(86);
  });

  test('ratings outside 1 to 5 are clamped; ratings that are not numbers are left out', () => {
    expect(analyseReviews(rated(7, -3)).recommendationScore).toBe(50);
    expect(analyseReviews(rated(7, -3)).keyInsights[0]).toBe('Rated 3 out of 5 on average by 2 reviewers');
    expect(analyseReviews(rated(Number.NaN, Number.POSITIVE_INFINITY, 5, 1)).recommendationScore).toBe(50);
    expect(analyseReviews(rated(Number.NaN, 5, 1)).summary).toBe('One of the two reviewers recommends it.');
  });
});

describe('without reviews', () => {
  const empty: ReviewAnalysis = {
    recommendationScore: 0,
    overallSentiment: 'neutral',
    summary: 'No reviews yet.',
    commonPraises: [],
    commonConcerns: [],
    keyInsights: [],
  };

  test('scores 0 (the storefront hides the panel) and claims nothing', () => {
    expect(analyseReviews([])).toEqual(empty);
    expectWellFormed(analyseReviews([]));
  });

  test('reviews without a usable rating count as no reviews', () => {
    expect(analyseReviews(rated(Number.NaN, Number.NEGATIVE_INFINITY))).toEqual(empty);
  });
});

describe('small counts', () => {
  test('a single glowing review', () => {
    const analysis = analyseReviews([fountain[0] as ReviewText]);
    expectWellFormed(analysis);
    expect(analysis).toMatchObject({ recommendationScore: 100, overallSentiment: 'positive' });
    expect(analysis.summary).toBe(
      'Its only reviewer recommends it, rating it 5 stars. The review praises the easy setup and the LED lights.',
    );
    expect(analysis.commonPraises).toEqual(['Easy setup (1 review)', 'LED lights (1 review)', 'Soothing (1 review)']);
    expect(analysis.commonConcerns).toEqual([]);
    expect(analysis.keyInsights).toEqual(['Rated 5 out of 5 by its only reviewer', 'Based on a single review so far']);
  });

  test('a single angry review', () => {
    const analysis = analyseReviews([review(1, 'Leaked everywhere', 'The basin cracked and it leaked on my desk.')]);
    expectWellFormed(analysis);
    expect(analysis).toMatchObject({ recommendationScore: 0, overallSentiment: 'negative', commonPraises: [] });
    expect(analysis.summary).toMatch(
      /^Its only reviewer does not recommend it, rating it 1 star\. The review complains/,
    );
    expect(analysis.commonConcerns).toContain('Leaks (1 review)');
  });

  test('a single review with nothing to say', () => {
    const analysis = analyseReviews(rated(4.5));
    expectWellFormed(analysis);
    expect(analysis.summary).toBe('Its only reviewer recommends it, rating it 4.5 stars.');
    expect(analysis.commonPraises).toEqual([]);
  });

  test('two and three reviews', () => {
    expect(analyseReviews(rated(5, 4)).summary).toBe('Both reviewers recommend it.');
    expect(analyseReviews(rated(2, 1)).summary).toBe('Neither reviewer recommends it.');
    expect(analyseReviews(rated(2, 4)).summary).toBe('One of the two reviewers recommends it.');
    expect(analyseReviews(rated(5, 4, 1, 2)).summary).toBe('Half of the 4 reviewers recommend it.');
    expect(analyseReviews(rated(1, 1, 5)).summary).toBe('Only 1 of the 3 reviewers recommends it (33%).');
    const three = analyseReviews(fountain.slice(0, 3));
    expectWellFormed(three);
    expect(three.summary).toBe('All 3 reviewers recommend it. Shoppers praise how soothing it is.');
    expect(three.commonPraises).toEqual(['Soothing (2 reviews)']);
  });

  test('a phrase said in one review of several is not common', () => {
    const analysis = analyseReviews([
      review(5, 'Soothing sound', 'Easy setup.'),
      review(5, 'Lovely', 'Love it.'),
      review(5, 'Great', 'Really great.'),
    ]);
    expect(analysis.commonPraises).toEqual([]);
    expect(analysis.summary).toBe('All 3 reviewers recommend it.');
  });
});

describe('a mostly negative product', () => {
  const complaints = [
    review(1, 'Leaked everywhere', 'The basin cracked after a week and it leaked all over my desk. The pump is loud.'),
    review(2, 'Loud pump', 'The pump is so loud I had to turn it off. Not relaxing at all. The basin leaked too.'),
    review(1, 'Broken on arrival', 'Arrived cracked and leaking. Customer service never replied.'),
    review(2.5, 'Meh', "It isn't great. Pretty loud, and it leaks. The light is nice though."),
  ];

  test('all critical: leads with the complaints and praises nothing', () => {
    const analysis = analyseReviews(complaints);
    expectWellFormed(analysis);
    expect(analysis).toMatchObject({ recommendationScore: 0, overallSentiment: 'negative', commonPraises: [] });
    expect(analysis.commonConcerns).toEqual(['Leaks (4 reviews)', 'Loud pump (2 reviews)', 'Cracked (2 reviews)']);
    expect(analysis.summary).toBe(
      'None of the 4 reviewers recommend it. Shoppers complain about the leaks and the loud pump.',
    );
    expect(analysis.keyInsights).toEqual([
      'Rated 1.6 out of 5 on average by 4 reviewers',
      '4 of 4 reviews mention the leaks',
      '3 of 4 reviews give 2 stars or fewer',
    ]);
  });

  test('a few happy buyers: the complaints still come first; the 2.6 average is neutral', () => {
    const analysis = analyseReviews([
      ...complaints,
      review(5, 'Soothing sound', 'The soothing sound is lovely.'),
      review(4, 'Nice', 'Soothing sound, no complaints.'),
    ]);
    expectWellFormed(analysis);
    expect(analysis.recommendationScore).toBe(33);
    expect(analysis.overallSentiment).toBe('neutral');
    expect(analysis.commonPraises).toEqual(['Soothing sound (2 reviews)']);
    expect(analysis.summary).toBe(
      'Only 2 of the 6 reviewers recommend it (33%). Shoppers complain about the leaks and the loud pump; some like the soothing sound.',
    );
  });
});

describe('overall sentiment', () => {
  const happy = 'Soothing, quiet and beautiful. Love it, works perfectly.';
  const unhappy = 'Terrible. Broken, leaks, noisy and flimsy. Awful, a waste.';

  test('follows the ratings far from the thresholds', () => {
    expect(analyseReviews([review(5, '', unhappy), review(5, '', unhappy)]).overallSentiment).toBe('positive');
    expect(analyseReviews([review(1, '', happy), review(1, '', happy)]).overallSentiment).toBe('negative');
    expect(analyseReviews(rated(3, 3)).overallSentiment).toBe('neutral');
  });

  test('words move a product that sits near a threshold', () => {
    const nearTop = [4, 4, 4, 3];
    expect(analyseReviews(nearTop.map((rating) => review(rating, '', happy))).overallSentiment).toBe('positive');
    expect(analyseReviews(nearTop.map((rating) => review(rating, '', unhappy))).overallSentiment).toBe('neutral');
    const middle = [4, 4, 3, 3];
    expect(analyseReviews(middle.map((rating) => review(rating, '', happy))).overallSentiment).toBe('positive');
    expect(analyseReviews(middle.map((rating) => review(rating, '', unhappy))).overallSentiment).toBe('neutral');
    expect(analyseReviews([3, 3, 2, 3].map((rating) => review(rating, '', unhappy))).overallSentiment).toBe('negative');
  });

  test('is not positive when most reviewers would not recommend it', () => {
    expect(analyseReviews(rated(5, 3.9, 3.9, 3.5, 3.8)).overallSentiment).toBe('neutral');
  });
});

describe('negation', () => {
  test('negated complaints are not concerns', () => {
    const analysis = analyseReviews([
      review(5, 'Not loud at all', "It's not loud, no splashing, never leaks. The pump doesn't hum."),
      review(5, 'Quiet', 'Not noisy, no leaks, and it isn’t loud. Zero complaints, without any hum.'),
      review(4, 'Fine', "Isn't loud. Nothing cracked. No splashing on my desk. Pump noise is minimal."),
    ]);
    expectWellFormed(analysis);
    expect(analysis.commonConcerns).toEqual([]);
    expect(analysis.overallSentiment).toBe('positive');
  });

  test('negated praise is not praise', () => {
    const analysis = analyseReviews([
      review(3, 'Not soothing', 'It is not soothing at all. Not relaxing, not quiet.'),
      review(3, 'Not soothing either', "Wasn't soothing. Isn't quiet and it's not relaxing. It isn't great."),
    ]);
    expectWellFormed(analysis);
    expect(analysis.commonPraises).toEqual([]);
    expect(analysis.overallSentiment).toBe('negative');
  });

  test('reaches only the next few words, and "no matter" negates nothing', () => {
    const analysis = analyseReviews([
      review(5, 'Surprised', "I didn't expect it to be this relaxing."),
      review(5, 'Surprised too', 'I did not think it would be so relaxing.'),
      review(2, 'Hums', 'No matter where I put it the pump hums.'),
      review(2, 'Hums', 'No matter what I try the pump hums.'),
    ]);
    expect(analysis.commonPraises).toEqual(['Relaxing (2 reviews)']);
    expect(analysis.commonConcerns).toEqual(['Pump noise (2 reviews)']);
  });
});

describe('phrases', () => {
  const forbidden = new Set(
    `the a an it its it's i i'm my me this that and but or so is was be would could should really very just
    not no of to for with on in at great good nice love loved best perfect like one get got bought`.split(/\s+/),
  );

  test('stopwords and vague words never surface, however often they are said', () => {
    const analysis = analyseReviews(
      Array.from({ length: 6 }, () =>
        review(5, 'It is really the best', 'It would be really, really the best. I would, it is, the the the. Great!'),
      ),
    );
    expectWellFormed(analysis);
    expect(analysis.commonPraises).toEqual([]);
  });

  test('no seed product surfaces a stopword, a number or a vague word', () => {
    for (const product of seedProducts) {
      for (const phrase of allPhrases(analyseReviews(reviewsOf(product)))) {
        for (const word of phrase.split(' ')) {
          expect(forbidden.has(word), `"${word}" in "${phrase}" (${product})`).toBe(false);
          expect(word).toMatch(/^[a-z][a-z'-]+$/);
        }
      }
    }
  });

  test('phrases neither repeat nor overlap within a list, nor appear on both sides', () => {
    const wordsOf = (phrase: string) => phrase.split(' ').map((word) => word.replace(/s$/, ''));
    for (const product of seedProducts) {
      const analysis = analyseReviews(reviewsOf(product));
      for (const list of [analysis.commonPraises, analysis.commonConcerns]) {
        const seen = new Set<string>();
        for (const phrase of list.map(phraseOf)) {
          for (const word of wordsOf(phrase)) {
            expect(seen.has(word), `"${word}" twice in ${list.join(', ')} (${product})`).toBe(false);
            seen.add(word);
          }
        }
      }
      const praised = new Set(analysis.commonPraises.map(phraseOf));
      expect(analysis.commonConcerns.map(phraseOf).filter((phrase) => praised.has(phrase))).toEqual([]);
    }
  });

  test('a phrase and its parts count once: "LED lights", not also "LED" or "lights"', () => {
    const analysis = analyseReviews([
      review(5, 'Pretty', 'The LED lights are lovely.'),
      review(5, 'Cozy', 'Lovely LED lights in the evening.'),
      review(5, 'Nice', 'The LEDs are gorgeous. The lights are lovely.'),
      review(4, 'Good', 'Great LED light, very pretty.'),
    ]);
    const withLight = analysis.commonPraises.filter((label) => /led|light/i.test(label));
    expect(withLight).toEqual(['LED lights (3 reviews)']);
  });

  test('inflections and word order are one phrase: "setup is easy" is the easy setup', () => {
    const analysis = analyseReviews([
      review(5, 'Easy', 'Easy to set up.'),
      review(5, 'Simple', 'Setup is easy, took five minutes.'),
      review(5, 'Quick', 'Set it up in minutes, so easy to set-up.'),
      review(5, 'Yes', 'The sound is soothing. Soothing sounds all day.'),
      review(4, 'Yes again', 'Soothing sound.'),
    ]);
    expect(analysis.commonPraises).toEqual(['Easy setup (3 reviews)', 'Soothing sound (2 reviews)']);
  });

  test('the summary fits things, qualities and actions into its sentence', () => {
    const complaints = analyseReviews([
      review(2, 'Flimsy', 'Feels flimsy. The lid is stiff. Charges slowly, charges slow.'),
      review(1, 'So flimsy', 'Flimsy and the lid is stiff. It charges slow.'),
      // Praise from a critical review is not counted as praise.
      review(2, 'Meh', 'Quiet, at least. It boils fast.'),
      review(5, 'Fine by me', 'Quiet and boils fast.'),
    ]);
    expect(complaints.commonConcerns).toEqual([
      'Stiff lid (2 reviews)',
      'Flimsy (2 reviews)',
      'Charges slow (2 reviews)',
    ]);
    expect(complaints.commonPraises).toEqual([]);
    expect(complaints.summary).toBe(
      'Only 1 of the 4 reviewers recommends it (25%). Shoppers complain about the stiff lid and it being flimsy.',
    );
    const praise = analyseReviews([
      review(5, 'Fast', 'Boils fast and so quiet.'),
      review(5, 'Quick', 'It boils really fast. Quiet too.'),
      review(4, 'Good', 'Lovely sturdy handle. Sturdy handle, boils fast.'),
      review(4, 'Good', 'The handle is sturdy.'),
    ]);
    // Ties go to the phrase made more of telling words: "quiet" before "sturdy handle".
    expect(praise.commonPraises).toEqual(['Boils fast (3 reviews)', 'Quiet (2 reviews)', 'Sturdy handle (2 reviews)']);
    expect(praise.summary).toBe('All 4 reviewers recommend it. Shoppers praise how it boils fast and how quiet it is.');
  });

  test('shouting keeps lower case; acronyms keep their capitals', () => {
    const analysis = analyseReviews([
      review(5, 'SO QUIET', 'QUIET AND RELAXING!!!'),
      review(5, 'Quiet', 'So quiet and relaxing, with a USB cable. The USB cable is handy.'),
      review(5, 'quiet', 'quiet, relaxing, handy usb cable'),
    ]);
    expect(analysis.commonPraises).toEqual([
      'Quiet (3 reviews)',
      'Relaxing (3 reviews)',
      'Handy USB cable (2 reviews)',
    ]);
  });
});

describe('the demo reviews', () => {
  test('the fountain: soothing sound, easy setup, quiet and LED lights; pump noise and splashing', () => {
    const analysis = analyseReviews(fountain);
    expectWellFormed(analysis);
    expect(analysis.overallSentiment).toBe('positive');
    const praises = analysis.commonPraises.map(phraseOf);
    expect(praises.slice(0, 2)).toEqual(['soothing sound', 'easy setup']);
    expect(praises).toEqual(expect.arrayContaining(['quiet', 'led lights']));
    expect(analysis.commonPraises).toContain('LED lights (8 reviews)');
    expect(analysis.commonConcerns.map(phraseOf).slice(0, 2)).toEqual(['pump noise', 'splashing']);
    expect(analysis.summary).toBe(
      'Most of the 70 reviewers recommend it (86%). Shoppers praise the soothing sound and the easy setup; a few mention the pump noise and the splashing.',
    );
    expect(analysis.keyInsights).toEqual([
      'Rated 4.5 out of 5 on average by 70 reviewers',
      '52 of 70 reviews give 4.5 stars or more',
      'Reviews mentioning the pump noise average 2.7 stars, against 4.5 overall',
      '5 of 70 reviews give 2 stars or fewer',
    ]);
  });

  test('the wireless charger: its looks, against the light and slow charging', () => {
    const analysis = analyseReviews(reviewsOf('wireless-charger'));
    expectWellFormed(analysis);
    expect(analysis.commonPraises[0]).toBe('Looks (5 reviews)');
    expect(analysis.commonConcerns).toContain('Slow charging (2 reviews)');
  });

  test('every product gets a well-formed analysis with 2 to 4 insights', () => {
    for (const product of seedProducts) {
      const analysis = analyseReviews(reviewsOf(product));
      expectWellFormed(analysis);
      expect(analysis.keyInsights.length, product).toBeGreaterThanOrEqual(2);
      expect(analysis.recommendationScore, product).toBeGreaterThan(0);
    }
  });
});

describe('bad input', () => {
  test('empty, blank, emoji-only and punctuation-only text', () => {
    const analysis = analyseReviews([
      review(5, '', ''),
      review(4, '   ', '\n\t '),
      review(1, '🌊🌊🌊', '!!!???...'),
      review(3, '—', '"" () [] {} …'),
    ]);
    expectWellFormed(analysis);
    expect(analysis.commonPraises).toEqual([]);
    expect(analysis.commonConcerns).toEqual([]);
    expect(analysis.summary).toBe('Half of the 4 reviewers recommend it.');
  });

  test('markup is read as plain words and never echoed', () => {
    const markup = '<script>alert("quiet")</script><b onclick="x()">soothing sound</b> <img src=x onerror=y>';
    const analysis = analyseReviews([review(5, '<h1>Hi</h1>', markup), review(5, '<i>Yes</i>', markup)]);
    expectWellFormed(analysis);
    expect(analysis.commonPraises).toEqual(['Soothing sound (2 reviews)', 'Quiet (2 reviews)']);
  });

  test('fields missing at run time are treated as empty', () => {
    const broken = [{ rating: 5 }, { rating: 4, title: null, content: undefined }] as unknown as ReviewText[];
    const analysis = analyseReviews(broken);
    expectWellFormed(analysis);
    expect(analysis.summary).toBe('Both reviewers recommend it.');
  });

  test('text in another language or script yields no phrases, only counts', () => {
    const analysis = analyseReviews([
      review(5, 'Sehr schön', 'Das Plätschern ist wunderbar beruhigend.'),
      review(5, 'とても良い', '音がとても癒されます。'),
      review(2, 'Trop bruyant', 'La pompe fait trop de bruit.'),
    ]);
    expectWellFormed(analysis);
    expect(analysis.summary).toBe('Most of the 3 reviewers recommend it (67%).');
  });

  test('one huge review counts once', () => {
    const analysis = analyseReviews([
      review(5, 'Soothing sound', 'The soothing sound! '.repeat(10_000)),
      review(5, 'Soothing sound', 'Soothing sound.'),
    ]);
    expect(analysis.commonPraises).toEqual(['Soothing sound (2 reviews)']);
  });
});

describe('determinism and speed', () => {
  test('the same reviews give the same analysis, whatever was analysed before', () => {
    const first = analyseReviews(fountain);
    analyseReviews(reviewsOf('wireless-charger'));
    expect(analyseReviews(structuredClone(fountain))).toEqual(first);
    expect(analyseReviews(fountain)).toEqual(first);
  });

  test('the input is not changed', () => {
    const copy = structuredClone(fountain);
    analyseReviews(fountain);
    expect(fountain).toEqual(copy);
  });

  test('500 reviews are analysed quickly (a loose sanity bound; the aim is well under 50 ms)', () => {
    const many = Array.from({ length: 500 }, (_, i) => seedReviews[i % seedReviews.length] as ReviewText);
    analyseReviews(many);
    const started = performance.now();
    const analysis = analyseReviews(many);
    const elapsed = performance.now() - started;
    expectWellFormed(analysis);
    expect(elapsed).toBeLessThan(500);
  });
});
