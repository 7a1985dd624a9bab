/** The TikTok pixel's command queue, as its base code defines it (integrations 4.1). */
export type PixelQueue = unknown[] & {
  methods: readonly string[];
  load: (pixelId: string, options?: object) => void;
  page: () => void;
  track: (event: string, properties?: object, options?: { event_id: string }) => void;
  _i?: Record<string, unknown[] & { _u?: string }>;
  _t?: Record<string, number>;
  _o?: Record<string, object>;
} & Record<string, unknown>;

declare global {
  interface Window {
    ttq?: PixelQueue;
    TiktokAnalyticsObject?: string;
  }
}

const PIXEL_SCRIPT = 'https://analytics.tiktok.com/i18n/pixel/events.js';
const PIXEL_METHODS = [
  'page',
  'track',
  'identify',
  'instances',
  'debug',
  'on',
  'off',
  'once',
  'ready',
  'alias',
  'group',
  'enableCookie',
  'disableCookie',
  'holdConsent',
  'revokeConsent',
  'grantConsent',
] as const;

/**
 * Loads the TikTok pixel once: the command queue its script expects (calls made before the script
 * arrives are kept and replayed by it), then the script itself, async and off the critical path.
 * Called only after Accept All, and only on a shop with a pixel (the CSP admits its host then).
 */
let pixelRequested = false;

/** Returns the pixel, or undefined when there is none (a blocker may keep `ttq` from ever being set). */
export function loadAdPixel(pixelId: string): PixelQueue | undefined {
  if (pixelRequested || window.ttq) return window.ttq;
  pixelRequested = true;
  window.TiktokAnalyticsObject = 'ttq';
  const queue = [] as unknown as PixelQueue;
  const defer = (target: Record<string, unknown>, method: string) => {
    target[method] = (...args: unknown[]) => {
      (target as unknown as unknown[]).push([method, ...args]);
    };
  };
  queue.methods = PIXEL_METHODS;
  for (const method of PIXEL_METHODS) defer(queue, method);
  queue.load = (id: string, options: object = {}) => {
    const instance = [] as unknown as unknown[] & { _u?: string };
    instance._u = PIXEL_SCRIPT;
    queue._i = { ...queue._i, [id]: instance };
    queue._t = { ...queue._t, [id]: Date.now() };
    queue._o = { ...queue._o, [id]: options };
    const script = document.createElement('script');
    script.async = true;
    script.src = `${PIXEL_SCRIPT}?sdkid=${encodeURIComponent(id)}&lib=ttq`;
    document.head.appendChild(script);
  };
  window.ttq = queue;
  queue.load(pixelId);
  return window.ttq;
}
