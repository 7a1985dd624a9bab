import { useEffect, useId, useRef, useState } from 'react';
import {
  AI_AUDIENCE_MAX,
  AI_KEYWORDS_MAX,
  AI_PROMPT_MAX,
  aiContentMessages,
  aiFieldLabels,
  aiFields,
  aiPresets,
  aiToneLabels,
  aiTones,
} from '#common/ai-content-rules.ts';
import type {
  AiContent,
  aiExtractForMarketplaceProduct,
  aiExtractForProduct,
} from '#common/contracts/admin/ai-content.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { CheckboxField, InputField } from '../ui/fields.tsx';
import { Modal } from '../ui/modal.tsx';
import { input, label, primaryButton, secondaryButton } from '../ui/styles.ts';
import {
  type AiContentForm,
  type AiContentTarget,
  aiContentRequest,
  applyPreset,
  checkAiContentForm,
  type ExistingData,
  initialAiContentForm,
  readAiContent,
  toggleField,
} from './ai-content-form.ts';

const presetButton = 'inline-flex items-center justify-center rounded-full border px-3 py-1 text-xs font-medium';
const presetChosen = 'border-sage-700 bg-sage-700 text-white';
const presetOther = 'border-sage-300 bg-white text-sage-900 hover:bg-sage-50';

export type AiContentGeneratorProps = {
  open: boolean;
  onClose: () => void;
  /** Receives the generated content (only the fields asked for); the modal then closes. */
  onApply: (content: AiContent) => void;
  /** The product being edited; null in the Add Product modal. */
  productId: string | null;
  /** The marketplace id typed or fetched in the form ('' when none). */
  aliId: string;
  existingData: ExistingData;
  imageUrls: string[];
};

/**
 * The AI Content Generator modal (spec 2): the five presets, a custom prompt, the fields to write,
 * the tone, an optional audience and focus keywords, whether to look at the images and use the
 * form's data; Generate Content asks the server (spec 7) and hands the answer to the form.
 */
export function AiContentGenerator({
  open,
  onClose,
  onApply,
  productId,
  aliId,
  existingData,
  imageUrls,
}: AiContentGeneratorProps) {
  const [form, setForm] = useState<AiContentForm>(initialAiContentForm);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // An answer that arrives after the modal was closed (or asked again) is dropped.
  const call = useRef(0);
  const ids = { prompt: useId(), tone: useId(), error: useId(), fields: useId() };

  useEffect(() => {
    if (open) setError(null);
    else {
      call.current += 1;
      setBusy(false);
    }
  }, [open]);

  const update = (change: Partial<AiContentForm>) => setForm((current) => ({ ...current, ...change }));

  async function generate() {
    const checked = checkAiContentForm(form, { productId, aliId });
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    const body = aiContentRequest(form, { imageUrls, existingData });
    const id = ++call.current;
    setBusy(true);
    setError(null);
    try {
      const answer = await request(checked.target, body);
      if (id !== call.current) return;
      const read = readAiContent(answer);
      if ('error' in read) {
        setError(read.error);
        return;
      }
      onApply(read.content);
      onClose();
    } catch (failure) {
      if (id !== call.current) return;
      // Spec 8: the server's error text, else 'AI generation failed'; 'Failed to generate content' when it was not reached.
      setError(
        failure instanceof ApiRequestError
          ? failure.message || aiContentMessages.generationFailed
          : aiContentMessages.requestFailed,
      );
    } finally {
      if (id === call.current) setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="AI Content Generator"
      size="lg"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={generate}
            disabled={busy}
            aria-describedby={error ? ids.error : undefined}
          >
            {busy ? 'Generating…' : 'Generate Content'}
          </button>
        </>
      }
    >
      <form
        className="space-y-5"
        aria-busy={busy}
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) void generate();
        }}
      >
        <fieldset>
          <legend className={label}>Presets</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {aiPresets.map((preset) => (
              <button
                key={preset.id}
                type="button"
                aria-pressed={form.presetId === preset.id}
                onClick={() => setForm((current) => applyPreset(current, preset))}
                className={`${presetButton} ${form.presetId === preset.id ? presetChosen : presetOther}`}
              >
                {preset.label}
              </button>
            ))}
          </div>
        </fieldset>

        <div>
          <label htmlFor={ids.prompt} className={label}>
            Custom prompt
          </label>
          <textarea
            id={ids.prompt}
            rows={4}
            value={form.prompt}
            maxLength={AI_PROMPT_MAX}
            onChange={(event) => update({ prompt: event.target.value, presetId: null })}
            className={`mt-1 ${input}`}
          />
        </div>

        <fieldset>
          <legend className={label}>Fields to generate</legend>
          <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
            {aiFields.map((field) => (
              <CheckboxField
                key={field}
                label={aiFieldLabels[field]}
                checked={form.fields.includes(field)}
                onChange={(checked) => setForm((current) => toggleField(current, field, checked))}
              />
            ))}
          </div>
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor={ids.tone} className={label}>
              Tone
            </label>
            <select
              id={ids.tone}
              value={form.tone}
              onChange={(event) => update({ tone: event.target.value as AiContentForm['tone'] })}
              className={`mt-1 ${input}`}
            >
              {aiTones.map((tone) => (
                <option key={tone} value={tone}>
                  {aiToneLabels[tone]}
                </option>
              ))}
            </select>
          </div>
          <InputField
            label="Target audience (optional)"
            value={form.targetAudience}
            onChange={(targetAudience) => update({ targetAudience })}
            inputProps={{ maxLength: AI_AUDIENCE_MAX, placeholder: 'e.g. people working from home' }}
          />
          <InputField
            label="Focus keywords (optional)"
            value={form.keywords}
            onChange={(keywords) => update({ keywords })}
            hint="Separate keywords with commas"
            inputProps={{ maxLength: AI_KEYWORDS_MAX }}
          />
        </div>

        <div className="space-y-2">
          <CheckboxField
            label="Analyze product images"
            checked={form.useImages}
            onChange={(useImages) => update({ useImages })}
          />
          <CheckboxField
            label="Use existing data"
            checked={form.useExistingData}
            onChange={(useExistingData) => update({ useExistingData })}
            hint="The title, description, features, tags and categories now in the form"
          />
        </div>

        <div aria-live="assertive">
          {error ? (
            <p id={ids.error} role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
              {error}
            </p>
          ) : null}
        </div>
      </form>
    </Modal>
  );
}

/** POST /api/aliexpress/ai-extract/{productId} or /ai-extract-by-ali/{aliId} (spec 7). */
function request(target: AiContentTarget, body: ReturnType<typeof aiContentRequest>): Promise<unknown> {
  return target.kind === 'product'
    ? api.call<typeof aiExtractForProduct>(
        { method: 'POST', path: '/api/aliexpress/ai-extract/:productId' },
        { params: { productId: target.productId }, body },
      )
    : api.call<typeof aiExtractForMarketplaceProduct>(
        { method: 'POST', path: '/api/aliexpress/ai-extract-by-ali/:aliId' },
        { params: { aliId: target.aliId }, body },
      );
}
