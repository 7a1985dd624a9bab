import type { MetaDescriptor } from 'react-router';

/**
 * The head of a page: title, description, canonical URL and Open Graph tags for sharing.
 * `origin` is the shop's public address; `path` the page's own (with its query when it matters).
 */
export function pageMeta({
  title,
  description,
  origin,
  path,
  image,
  type = 'website',
  noIndex = false,
}: {
  title: string;
  description: string;
  origin: string;
  path: string;
  image?: string | undefined;
  type?: 'website' | 'product';
  noIndex?: boolean;
}): MetaDescriptor[] {
  const url = `${origin}${path}`;
  const absolute = (src: string) => (src.startsWith('http') ? src : `${origin}${src}`);
  return [
    { title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: 'Stillwater' },
    { property: 'og:type', content: type },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    ...(image ? [{ property: 'og:image', content: absolute(image) }] : []),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    ...(noIndex ? [{ name: 'robots', content: 'noindex, follow' }] : []),
  ];
}

/** The shop's origin as the frame's loader gives it to every page. */
export function originOf(matches: readonly ({ loaderData?: unknown } | undefined)[]): string {
  // The frame (routes/frame.tsx), the layout inside the document, loads the shop's facts.
  const frame = matches[1]?.loaderData as { origin?: string } | undefined;
  return frame?.origin ?? '';
}
