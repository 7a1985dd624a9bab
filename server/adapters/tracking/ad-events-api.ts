/**
 * The ad service's server-side events (TikTok Events API v1.3, integrations section 4.2): one
 * event per call, its user fields already hashed by the caller. There is no maintained Node
 * client for this API, so it is a plain HTTPS call as TikTok documents it.
 */

/** One `data[]` element of the call. */
export type AdEventData = {
  event: string;
  event_id: string;
  /** Unix seconds. */
  event_time: number;
  user: Record<string, string>;
  properties?: Record<string, unknown>;
  page?: { url: string; referrer?: string };
};

export type AdEventsApi = {
  name: 'tiktok';
  send(data: AdEventData, options: { testEventCode: string | null }): Promise<void>;
};

/** A refused or failed call; transient ones (rate limit, outage, network) are worth retrying. */
export class AdEventsApiError extends Error {
  readonly transient: boolean;
  constructor(message: string, transient: boolean) {
    super(message);
    this.name = 'AdEventsApiError';
    this.transient = transient;
  }
}

export const TIKTOK_EVENTS_API = 'https://business-api.tiktok.com';

export function createTikTokEventsApi({
  pixelId,
  accessToken,
  apiBase = TIKTOK_EVENTS_API,
  timeoutMs = 10_000,
}: {
  pixelId: string;
  accessToken: string;
  /** Tests point it at their local stand-in. */
  apiBase?: string;
  timeoutMs?: number;
}): AdEventsApi {
  const url = new URL('/open_api/v1.3/event/track/', apiBase).href;
  return {
    name: 'tiktok',
    async send(data, { testEventCode }) {
      const body = {
        event_source: 'web',
        event_source_id: pixelId,
        ...(testEventCode ? { test_event_code: testEventCode } : {}),
        data: [data],
      };
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'Access-Token': accessToken, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new AdEventsApiError(`the Events API could not be reached: ${(error as Error).message}`, true);
      }
      const text = await response.text().catch(() => '');
      if (response.status === 429 || response.status >= 500) {
        throw new AdEventsApiError(`the Events API answered ${response.status}`, true);
      }
      // Errors also come as HTTP 200 with a non-zero code in the { code, message } envelope.
      let answer: { code?: unknown; message?: unknown } = {};
      try {
        answer = JSON.parse(text) as typeof answer;
      } catch {
        // Not JSON: judged by the status alone.
      }
      if (response.status >= 400 || (answer.code !== undefined && answer.code !== 0)) {
        const message = typeof answer.message === 'string' ? answer.message.slice(0, 200) : `HTTP ${response.status}`;
        // A refusal in the envelope is about this event and final, except 40100, the Marketing API's rate limit.
        throw new AdEventsApiError(`the Events API refused the event: ${message}`, answer.code === 40100);
      }
    },
  };
}
