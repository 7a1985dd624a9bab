import type { IncomingMessage } from 'node:http';

type NonceRequest = IncomingMessage & { cspNonce?: string };

/**
 * The Content-Security-Policy: only our own scripts, plus the inline ones React Router renders
 * with this response's nonce. Vite's development server needs inline scripts and websockets.
 */
export function contentSecurityPolicy({ development }: { development: boolean }) {
  const nonce = (request: IncomingMessage) => `'nonce-${(request as NonceRequest).cspNonce ?? ''}'`;
  return {
    defaultSrc: ["'self'"],
    scriptSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    connectSrc: development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}
