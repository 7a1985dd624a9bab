import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { AuthCard, Notice, primaryButton } from '#web/common/form-fields.tsx';

type Result = { kind: 'success' | 'invalid' | 'retry'; text: string };

/**
 * A mailed newsletter link's page (confirm, unsubscribe): opening it changes nothing, since mail
 * scanners open links (some running the page's script); the button sends the link's token. The
 * answer takes the focus, so a screen reader reads it where the button was.
 */
export function LinkActionPage({
  title,
  prompt,
  action,
  busyLabel,
  run,
  invalid,
  done,
}: {
  title: string;
  prompt: string;
  action: string;
  busyLabel: string;
  /** Sends the token; answers the server's sentence. */
  run: (token: string) => Promise<{ message: string }>;
  /** The sentence for a link that can never work (from the contract, through the page's loader). */
  invalid: string;
  done: { to: string; label: string };
}) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  // 'retry': a limit or the network failed, and the button stays; 'invalid': the link can never work.
  const [result, setResult] = useState<Result | null>(token ? null : { kind: 'invalid', text: invalid });
  const answer = useRef<HTMLDivElement>(null);
  const pressed = useRef(false);
  useEffect(() => {
    if (result && pressed.current) answer.current?.focus();
  }, [result]);

  async function press() {
    pressed.current = true;
    setBusy(true);
    setResult(null);
    try {
      setResult({ kind: 'success', text: (await run(token)).message });
    } catch (error) {
      // A malformed token is the same bad link to the reader; a limit or a closed newsletter says so.
      const never = error instanceof ApiRequestError && (error.status === 400 || error.status === 404);
      setResult(
        never
          ? { kind: 'invalid', text: invalid }
          : { kind: 'retry', text: errorMessage(error, invalid, 'Network error. Please try again.') },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={title}>
      <div ref={answer} tabIndex={-1} className="outline-none">
        {result ? <Notice kind={result.kind === 'success' ? 'success' : 'error'}>{result.text}</Notice> : null}
      </div>
      {result && result.kind !== 'retry' ? (
        <Link to={done.to} className={`mt-6 block text-center ${primaryButton}`}>
          {done.label}
        </Link>
      ) : (
        <>
          <p className={result ? 'mt-4 text-stone-700' : 'text-stone-700'}>{prompt}</p>
          <button type="button" onClick={press} disabled={busy} className={`mt-6 ${primaryButton}`}>
            {busy ? busyLabel : action}
          </button>
        </>
      )}
    </AuthCard>
  );
}
