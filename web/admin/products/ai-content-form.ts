import {
  AI_IMAGES_MAX,
  type AiField,
  type AiPreset,
  type AiTone,
  aiContentMessages,
  aiFields,
  DEFAULT_AI_PRESET,
  DEFAULT_AI_TONE,
  isAiImageUrl,
} from '#common/ai-content-rules.ts';
import type { AiContent, AiContentRequestInput } from '#common/contracts/admin/ai-content.ts';

/** The AI Content Generator modal's form (spec 2, AI Content Generator modal). */
export type AiContentForm = {
  /** The preset last chosen; null once the prompt or the fields are changed by hand. */
  presetId: string | null;
  prompt: string;
  fields: AiField[];
  tone: AiTone;
  targetAudience: string;
  keywords: string;
  /** Spec 9: analyze images and use existing data default to on. */
  useImages: boolean;
  useExistingData: boolean;
};

export type ExistingData = {
  title: string;
  description: string;
  features: string[];
  tags: string[];
  categories: string[];
};

/** Spec 9: Complete Product Info is the default preset; the tone starts at the first one. */
export function initialAiContentForm(): AiContentForm {
  return {
    ...withPreset(DEFAULT_AI_PRESET),
    tone: DEFAULT_AI_TONE,
    targetAudience: '',
    keywords: '',
    useImages: true,
    useExistingData: true,
  };
}

function withPreset(preset: AiPreset) {
  return { presetId: preset.id, prompt: preset.prompt, fields: [...preset.fields] };
}

/** A preset sets the prompt and the field checkboxes. */
export function applyPreset(form: AiContentForm, preset: AiPreset): AiContentForm {
  return { ...form, ...withPreset(preset) };
}

/** A field checkbox switched; the fields keep the spec's order. */
export function toggleField(form: AiContentForm, field: AiField, checked: boolean): AiContentForm {
  const chosen = new Set(form.fields);
  if (checked) chosen.add(field);
  else chosen.delete(field);
  return { ...form, presetId: null, fields: aiFields.filter((name) => chosen.has(name)) };
}

/** Which call the modal makes: the product's own when it exists, else the marketplace product's. */
export type AiContentTarget = { kind: 'product'; productId: string } | { kind: 'marketplace'; aliId: string };

/**
 * What is refused before any call (spec 5): no field chosen, or neither a product nor fetched
 * marketplace info ('Fetch product info first'); else where the call goes.
 */
export function checkAiContentForm(
  form: AiContentForm,
  { productId, aliId }: { productId: string | null; aliId: string },
): { error: string } | { target: AiContentTarget } {
  if (form.fields.length === 0) return { error: aiContentMessages.noFields };
  if (productId) return { target: { kind: 'product', productId } };
  const id = aliId.trim();
  if (/^\d{1,20}$/.test(id)) return { target: { kind: 'marketplace', aliId: id } };
  return { error: aiContentMessages.noProductInfo };
}

/** The AI request (spec 3): the form, the first images the server accepts, and the form's data. */
export function aiContentRequest(
  form: AiContentForm,
  { imageUrls, existingData }: { imageUrls: readonly string[]; existingData: ExistingData },
): AiContentRequestInput {
  return {
    prompt: form.prompt,
    fields: form.fields,
    tone: form.tone,
    targetAudience: form.targetAudience.trim(),
    keywords: form.keywords.trim(),
    useImages: form.useImages,
    useExistingData: form.useExistingData,
    imageUrls: form.useImages ? [...new Set(imageUrls.filter(isAiImageUrl))].slice(0, AI_IMAGES_MAX) : [],
    existingData: {
      title: existingData.title,
      description: existingData.description,
      features: existingData.features.filter((item) => item.trim()),
      tags: existingData.tags.filter((item) => item.trim()),
      categories: existingData.categories.filter((item) => item.trim()),
    },
    outputFormat: 'json',
  };
}

/** Spec 5: an answer whose content is not an object is 'AI returned invalid format. Please try again.' */
export function readAiContent(answer: unknown): { content: AiContent } | { error: string } {
  const content = (answer as { content?: unknown } | null)?.content;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return { error: aiContentMessages.invalidFormat };
  }
  return { content: content as AiContent };
}
