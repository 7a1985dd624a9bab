import { describe, expect, test } from 'vitest';
import { aiContentMessages, aiPresets } from '#common/ai-content-rules.ts';
import {
  aiContentRequest,
  applyPreset,
  checkAiContentForm,
  initialAiContentForm,
  readAiContent,
  toggleField,
} from './ai-content-form.ts';

const existingData = {
  title: 'Calm Fountain',
  description: '',
  features: ['Quiet pump', ' '],
  tags: [''],
  categories: ['Fountains'],
};

describe('the AI Content Generator form', () => {
  test('starts with Complete Product Info (every field), the first tone, images and existing data on', () => {
    const form = initialAiContentForm();
    expect(aiPresets.map((preset) => preset.label)).toEqual([
      'Complete Product Info',
      'Description Only',
      'Features & Tags',
      'SEO Optimization',
      'Marketing Copy',
    ]);
    expect(form).toMatchObject({
      presetId: 'complete',
      prompt: aiPresets[0]?.prompt,
      fields: ['title', 'description', 'features', 'tags', 'seo'],
      tone: 'professional',
      useImages: true,
      useExistingData: true,
    });
  });

  test('a preset sets the prompt and the fields; a field switched by hand keeps the spec order', () => {
    const features = aiPresets.find((preset) => preset.label === 'Features & Tags');
    if (!features) throw new Error('no preset');
    const form = applyPreset(initialAiContentForm(), features);
    expect(form.fields).toEqual(['features', 'tags']);
    expect(form.prompt).toBe(features.prompt);
    const more = toggleField(form, 'title', true);
    expect(more.fields).toEqual(['title', 'features', 'tags']);
    expect(more.presetId).toBeNull();
    expect(toggleField(more, 'features', false).fields).toEqual(['title', 'tags']);
  });

  test("refuses no field, and no product nor marketplace id, with the spec's sentences", () => {
    const none = { ...initialAiContentForm(), fields: [] };
    expect(checkAiContentForm(none, { productId: 'a1b2c3d4e5f60718', aliId: '' })).toEqual({
      error: aiContentMessages.noFields,
    });
    const form = initialAiContentForm();
    expect(checkAiContentForm(form, { productId: null, aliId: '  ' })).toEqual({
      error: aiContentMessages.noProductInfo,
    });
    expect(checkAiContentForm(form, { productId: 'a1b2c3d4e5f60718', aliId: '123' })).toEqual({
      target: { kind: 'product', productId: 'a1b2c3d4e5f60718' },
    });
    expect(checkAiContentForm(form, { productId: null, aliId: ' 1005006384127590 ' })).toEqual({
      target: { kind: 'marketplace', aliId: '1005006384127590' },
    });
  });

  test('the request: the form, the first 10 acceptable images (none when images are off), the form data without blank rows', () => {
    const images = [
      ...Array.from({ length: 12 }, (_, i) => `https://ae01.alicdn.com/kf/${i}.jpg`),
      'http://plain.example/a.jpg',
    ];
    const form = { ...initialAiContentForm(), targetAudience: '  yoga lovers ', keywords: ' calm ' };
    const body = aiContentRequest(form, {
      imageUrls: ['/media/a.webp', 'javascript:alert(1)', ...images],
      existingData,
    });
    expect(body).toMatchObject({
      fields: ['title', 'description', 'features', 'tags', 'seo'],
      targetAudience: 'yoga lovers',
      keywords: 'calm',
      outputFormat: 'json',
      existingData: { title: 'Calm Fountain', features: ['Quiet pump'], tags: [], categories: ['Fountains'] },
    });
    expect(body.imageUrls).toHaveLength(10);
    expect(body.imageUrls?.[0]).toBe('/media/a.webp');
    expect(body.imageUrls).not.toContain('javascript:alert(1)');
    expect(aiContentRequest({ ...form, useImages: false }, { imageUrls: images, existingData }).imageUrls).toEqual([]);
  });

  test('an answer whose content is not an object is refused as an invalid format', () => {
    expect(readAiContent({ content: { title: 'Calm' } })).toEqual({ content: { title: 'Calm' } });
    for (const answer of [null, 'text', { content: 'text' }, { content: ['a'] }, { content: null }, {}]) {
      expect(readAiContent(answer)).toEqual({ error: aiContentMessages.invalidFormat });
    }
  });
});
