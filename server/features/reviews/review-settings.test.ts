import { afterAll, describe, expect, test } from 'vitest';
import { completion, startStandIn } from '#server/adapters/ai/openai-stand-in.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { REVIEW_AWAITS_CHECK, REVIEW_PUBLISHED } from './reviews.service.ts';

/**
 * What the settings tab changes for reviews, on the next request: autoApproveReviews, and the AI
 * key the moderation sends. The AI is a local stand-in of an OpenAI-compatible server (AI_BASE_URL)
 * that approves every review and keeps the Authorization header of each call.
 */
const ENV_KEY = 'sk-from-the-environment-0000';
const SAVED_KEY = 'sk-saved-in-the-settings-tab-4242';
const standIn = await startStandIn(({ body }) =>
  body.response_format.json_schema.name === 'reviews_moderation'
    ? completion(JSON.stringify({ flagged: false, reasons: [] }))
    : { status: 400, json: { error: { message: 'only moderation here' } } },
);
afterAll(() => standIn.close());
const { app, database, jobsDone } = await buildTestApp({
  env: { AI_BASE_URL: standIn.baseUrl, AI_MODEL: 'stand-in-model', AI_API_KEY: ENV_KEY },
});
let counter = 0;

const owner = await signedInAs(app, database.db, 'owner');
async function save(changes: Record<string, unknown>) {
  const response = await owner.browser.post('/api/admin/settings', changes);
  expect(response.statusCode).toBe(200);
  return response;
}

/** A review from a new shopper (one review per shopper and product). */
async function review() {
  const { browser } = await signedInAs(app, database.db, 'user', {}, `reviewer${++counter}${Date.now().toString(36)}`);
  const response = await browser.post('/api/reviews', {
    productId: 'wireless-charger',
    rating: 5,
    title: 'Calm desk',
    content: 'Charges my phone quietly, and looks lovely on the desk.',
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { message: string; review: { status: string } };
}

/** The key each moderation call carried. */
const moderationKeys = () =>
  standIn.requests
    .filter((request) => request.body.response_format.json_schema.name === 'reviews_moderation')
    .map((request) => request.headers.authorization);

describe('review settings take effect at once', () => {
  test('autoApproveReviews: off, the next review waits as pending; on, the next one is public', async () => {
    expect(await review()).toMatchObject({ message: REVIEW_PUBLISHED, review: { status: 'approved' } });
    await save({ autoApproveReviews: false });
    expect(await review()).toMatchObject({ message: REVIEW_AWAITS_CHECK, review: { status: 'pending' } });
    await save({ autoApproveReviews: true });
    expect(await review()).toMatchObject({ message: REVIEW_PUBLISHED, review: { status: 'approved' } });
    await jobsDone();
  });

  test('the AI key saved in the settings is the one the next moderation sends; removed, AI_API_KEY is again', async () => {
    const before = moderationKeys().length;
    await review();
    const saved = await save({ aiApiKey: SAVED_KEY });
    expect(saved.json().aiApiKey).toBe('••••4242');
    expect(saved.body).not.toContain(SAVED_KEY);
    await review();
    await save({ aiApiKey: null });
    await review();
    await jobsDone();
    expect(moderationKeys().slice(before)).toEqual([`Bearer ${ENV_KEY}`, `Bearer ${SAVED_KEY}`, `Bearer ${ENV_KEY}`]);
  });
});
