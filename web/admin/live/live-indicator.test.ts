import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { LiveIndicator } from './live-indicator.tsx';
import type { LiveStatus } from './use-live-events.ts';

const render = (status: LiveStatus, error: string | null = null) =>
  renderToStaticMarkup(createElement(LiveIndicator, { status, error, onReconnect: () => {} }));
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the live indicator (spec 2)', () => {
  test('shows the spec’s three texts word for word, in a status region', () => {
    expect(text(render('connected'))).toBe('Live updates active');
    expect(text(render('connecting'))).toBe('Connecting....');
    expect(text(render('error'))).toBe('Connection errorReconnect');
    for (const status of ['connected', 'connecting', 'error'] as const) {
      expect(render(status)).toMatch(/<span role="status"[^>]*>.*<\/span>/);
    }
  });

  test('offers Reconnect only on an error, as a button outside the status text', () => {
    expect(render('connected')).not.toContain('<button');
    expect(render('connecting')).not.toContain('<button');
    const html = render('error', 'Failed to connect');
    expect(html).toMatch(/<button type="button"[^>]*>Reconnect<\/button>/);
    expect(html).toContain('title="Failed to connect"');
    expect(html.indexOf('<button')).toBeGreaterThan(html.indexOf('</span></span>'));
  });
});
