import { SOCIAL_SHOP_RETURN_PARAMS, socialShopReturnMessage } from '../social-shop-return.ts';

/*
 * The authorisation popup hands its result back to the tab that opened it. A BroadcastChannel
 * rather than window.opener: our pages send Cross-Origin-Opener-Policy: same-origin, so once the
 * popup has been on TikTok's site it is in another browsing-context group and its opener is gone.
 * The channel reaches every back-office page of this origin; only a tab waiting for an
 * authorisation answers, and the popup closes only when one did (otherwise it shows the result
 * itself, as a tab the authorisation ran in does).
 */

const CHANNEL_NAME = 'stillwater.tiktok-shop-authorisation';
/** How long the popup waits for the tab that opened it to answer. */
const RECEIPT_WAIT_MS = 3000;

type Result = { type: 'authorisation-result'; id: string; query: string };
type Receipt = { type: 'authorisation-received'; id: string };

export type AuthorisationResult = NonNullable<ReturnType<typeof socialShopReturnMessage>>;

type ChannelLike = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent) => void) | null;
};
const openChannel = (): ChannelLike | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);

const isRecord = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null;

/**
 * In the page the authorisation returned to: announces the result (only its return parameters)
 * and calls `close` once the tab that opened the popup has taken it.
 */
export function handBackAuthorisation(
  params: URLSearchParams,
  { close = () => window.close(), open = openChannel }: { close?: () => void; open?: () => ChannelLike | null } = {},
): void {
  if (!socialShopReturnMessage(params)) return;
  const channel = open();
  if (!channel) return;
  const query = new URLSearchParams();
  for (const name of SOCIAL_SHOP_RETURN_PARAMS) {
    const value = params.get(name);
    if (value !== null) query.set(name, value);
  }
  const id = crypto.randomUUID();
  const timer = setTimeout(() => channel.close(), RECEIPT_WAIT_MS);
  channel.onmessage = (event) => {
    if (!isRecord(event.data) || event.data.type !== 'authorisation-received' || event.data.id !== id) return;
    clearTimeout(timer);
    channel.close();
    close();
  };
  channel.postMessage({ type: 'authorisation-result', id, query: query.toString() } satisfies Result);
}

/**
 * In the tab waiting for an authorisation: `onResult` gets each result announced (the spec's
 * message, worked out here from the return parameters); returns the function that stops listening.
 */
export function awaitAuthorisation(
  onResult: (result: AuthorisationResult) => void,
  channel: ChannelLike | null = openChannel(),
): () => void {
  if (!channel) return () => {};
  channel.onmessage = (event) => {
    const data = event.data;
    if (!isRecord(data) || data.type !== 'authorisation-result') return;
    if (typeof data.id !== 'string' || typeof data.query !== 'string') return;
    const result = socialShopReturnMessage(new URLSearchParams(data.query));
    if (!result) return;
    channel.postMessage({ type: 'authorisation-received', id: data.id } satisfies Receipt);
    onResult(result);
  };
  return () => channel.close();
}
