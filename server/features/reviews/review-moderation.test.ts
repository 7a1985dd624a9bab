import { describe, expect, test } from 'vitest';
import { moderationQueue } from '#seed/review-queue.ts';
import { seedReviews } from '#seed/reviews.ts';
import { moderateReview, moderationReasons } from './review-moderation.ts';

const reasonsOf = (content: string, title = 'My review') => moderateReview({ title, content }).reasons;

describe('review moderation rules', () => {
  test.each([
    ['an ordinary review', 'Lovely fountain', 'The sound is soothing and setup took ten minutes. Would buy again.'],
    [
      'place names and words that contain a rude one',
      'Scunthorpe',
      'A classic design; I assume the bass hum is normal. Great for Sussex cottages.',
    ],
    ['French', 'Très bien', "Très joli, le bruit de l'eau est apaisant. Je recommande à 100 % !"],
    ['German', 'Schön', 'Sehr schöne Lampe, das warme Licht ist ideal zum Lesen. Größe passt.'],
    ['Japanese', '静か', 'とても静かで、水の音に癒されます。買ってよかったです。'],
    ['Arabic', 'رائع', 'منتج رائع وهادئ جدا، أنصح به بشدة'],
    ['emoji', 'Love it 😍😍😍', 'Five stars ⭐⭐⭐⭐⭐ ❤️❤️❤️❤️❤️ 🌊🌊🌊🌊🌊🌊 calm vibes 🧘‍♀️'],
    ['acronyms in normal text', 'USB-C and LED', 'The USB cable is short but the LED glow is warm. 10/10.'],
    [
      'prices, sizes and dates',
      'Good value',
      'Paid $49.99 on 2024-03-15; it is 30 x 20 x 15 cm and holds 1.5 L. Runs 100000 hours?',
    ],
    ['a short excited title in capitals', 'WOW', 'Really lovely lamp, the light is warm and soft.'],
    ['an email-like price', 'Bargain', 'Bought two @ 20.99 each, and a third @20.99 for my sister.'],
    ['a sentence run on after a full stop', 'Nice', 'Great lamp.It glows softly.Top quality.'],
    ['a few repeats of a word', 'Very very good', 'Very very very quiet pump, I love it, I love it, I love it.'],
    ['an ellipsis and a couple of exclamation marks', 'Hmm...', 'Well... it works!! Sooo relaxing!!!'],
  ])('%s passes', (_case, title, content) => {
    expect(moderateReview({ title, content })).toEqual({ flagged: false, reasons: [] });
  });

  test.each([
    ['fuck'],
    ['This is SHIT'],
    ['what a sh1t product'],
    ['f*ck this lamp'],
    ['fuuuuck'],
    ['total bitch to set up'],
  ])('offensive language is flagged: %s', (content) => {
    expect(reasonsOf(content)).toContain(moderationReasons.offensive);
  });

  test.each([
    ['http://cheap-fountains.example/deal'],
    ['See https://bit.ly/abc for more'],
    ['Get it cheaper at www.fountain-deals-now.example'],
    ['cheaper on x.com'],
    ['Order from DEALS.SHOP today'],
    ['visit cheapstuff dot com'],
    ['write to me at jane.doe@mail.example'],
    ['follow @calmdeals for codes'],
    ['call me on +1 (555) 123-4567'],
    ['text 0612345678 for a discount'],
    ['ring 07911 123 456'],
    ['ｗｗｗ．ｄｅａｌｓ．ｃｏｍ'],
    ['www\u200b.deals\u200b.com'],
  ])('links and contact details are flagged: %s', (content) => {
    expect(reasonsOf(content)).toContain(moderationReasons.contact);
  });

  test.each([['aaaaaa'], ['Buy now!!!!!'], ['soooooooo good'], ['?????']])(
    'a character repeated 5 times or more is flagged: %s',
    (content) => {
      expect(reasonsOf(content)).toContain(moderationReasons.repeatedCharacters);
    },
  );

  test('shouting is flagged: mostly capitals over more than 12 letters', () => {
    expect(reasonsOf('THIS IS THE BEST LAMP EVER BUY IT NOW')).toContain(moderationReasons.capitals);
    expect(reasonsOf('GREAT LAMP, WORKS well', 'BEST BUY EVER')).toContain(moderationReasons.capitals);
    // 12 letters, or mostly lower case, is not shouting.
    expect(reasonsOf('PRODUCT', 'GREAT')).not.toContain(moderationReasons.capitals);
    expect(reasonsOf('The LED and USB parts are GREAT, really pleased with it')).not.toContain(
      moderationReasons.capitals,
    );
  });

  test('one word over and over is flagged', () => {
    expect(reasonsOf('buy buy buy buy')).toContain(moderationReasons.repeatedWords);
    expect(reasonsOf('cheap lamp cheap cheap price cheap deal cheap', 'cheap')).toContain(
      moderationReasons.repeatedWords,
    );
  });

  test('every reason is given, in a fixed order', () => {
    expect(moderateReview({ title: 'SHIT SHIT SHIT SHIT', content: 'VISIT WWW.DEALS.COM!!!!!' })).toEqual({
      flagged: true,
      reasons: [
        moderationReasons.offensive,
        moderationReasons.contact,
        moderationReasons.repeatedCharacters,
        moderationReasons.capitals,
        moderationReasons.repeatedWords,
      ],
    });
  });

  test('none of the demo reviews is flagged; the demo spam is', () => {
    const flagged = seedReviews.filter((review) => moderateReview(review).flagged);
    expect(flagged.map((review) => [review.title, moderateReview(review).reasons])).toEqual([]);
    for (const review of moderationQueue) {
      expect(moderateReview(review).flagged).toBe(review.status === 'flagged');
    }
  });
});
