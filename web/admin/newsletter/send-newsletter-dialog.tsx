import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { previewNewsletter, sendNewsletter, testNewsletter } from '#common/contracts/admin/newsletter.ts';
import { NEWSLETTER_CONTENT_MAX, NEWSLETTER_SUBJECT_MAX, SEND_FIELDS_REQUIRED } from '#common/newsletter-rules.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { InputField } from '../ui/fields.tsx';
import { Modal } from '../ui/modal.tsx';
import { primaryButton, secondaryButton } from '../ui/styles.ts';

const paths = {
  send: '/api/admin/newsletter/send' as (typeof sendNewsletter)['path'],
  preview: '/api/admin/newsletter/preview' as (typeof previewNewsletter)['path'],
  test: '/api/admin/newsletter/test' as (typeof testNewsletter)['path'],
};
type Preview = (typeof previewNewsletter)['response']['_zod']['output'];

/**
 * The send-newsletter modal (spec 2 and 5): subject and content, both required; a preview of the
 * mail as a subscriber gets it; a test send to the admin's own address; then the send to every
 * active subscriber, which the server queues as a background job.
 */
export function SendNewsletterDialog({
  open,
  onClose,
  onQueued,
}: {
  open: boolean;
  onClose: () => void;
  onQueued: (message: string) => void;
}) {
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const draft = () => ({ subject: subject.trim(), content: content.trim() });
  const filledIn = () => {
    const { subject: s, content: c } = draft();
    if (s && c) return true;
    setProblem(SEND_FIELDS_REQUIRED);
    return false;
  };
  const failed = (fallback: string) => (error: unknown) => {
    setNote(null);
    setProblem(errorMessage(error, fallback));
  };

  const showPreview = useMutation({
    mutationFn: () => api.call<typeof previewNewsletter>({ method: 'POST', path: paths.preview }, { body: draft() }),
    onSuccess: (answer) => {
      setProblem(null);
      setPreview(answer);
    },
    onError: failed('Failed to preview the newsletter'),
  });
  const sendTest = useMutation({
    mutationFn: () => api.call<typeof testNewsletter>({ method: 'POST', path: paths.test }, { body: draft() }),
    onSuccess: (answer) => {
      setProblem(null);
      setNote(answer.message);
    },
    onError: failed('Failed to send the test'),
  });
  const send = useMutation({
    mutationFn: () => api.call<typeof sendNewsletter>({ method: 'POST', path: paths.send }, { body: draft() }),
    onSuccess: (answer) => {
      setSubject('');
      setContent('');
      setPreview(null);
      setProblem(null);
      setNote(null);
      onQueued(answer.message);
    },
    onError: failed('Failed to send the newsletter'),
  });
  const busy = showPreview.isPending || sendTest.isPending || send.isPending;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Send Newsletter"
      size="lg"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={busy}
            onClick={() => filledIn() && showPreview.mutate()}
          >
            Preview
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={busy}
            onClick={() => filledIn() && sendTest.mutate()}
          >
            {sendTest.isPending ? 'Sending test…' : 'Send test to me'}
          </button>
          <button type="button" className={primaryButton} disabled={busy} onClick={() => filledIn() && send.mutate()}>
            {send.isPending ? 'Sending…' : 'Send to all active subscribers'}
          </button>
        </>
      }
    >
      <div className="space-y-4">
        {problem ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
            {problem}
          </p>
        ) : null}
        {note ? (
          <p role="status" className="rounded-lg bg-sage-50 px-4 py-3 text-sm text-sage-900">
            {note}
          </p>
        ) : null}
        <InputField
          label="Subject"
          value={subject}
          onChange={setSubject}
          inputProps={{ maxLength: NEWSLETTER_SUBJECT_MAX }}
        />
        <InputField
          label="Content"
          value={content}
          onChange={setContent}
          multiline
          rows={10}
          hint={`Plain text, up to ${NEWSLETTER_CONTENT_MAX.toLocaleString('en-US')} characters; a blank line starts a new paragraph. Every mail carries its own unsubscribe link.`}
        />
        {preview ? (
          <section aria-labelledby="newsletter-preview-heading" className="rounded-xl border border-sage-100 p-4">
            <h3 id="newsletter-preview-heading" className="font-medium text-stone-900">
              Preview: {preview.subject}
            </h3>
            {/* The text part as a subscriber's mail shows it, unsubscribe link included. */}
            <pre className="mt-3 max-h-80 overflow-y-auto rounded-lg border border-sage-100 bg-sage-50 p-3 font-sans text-sm whitespace-pre-wrap text-stone-800">
              {preview.text}
            </pre>
          </section>
        ) : null}
      </div>
    </Modal>
  );
}
