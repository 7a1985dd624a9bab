import type { ReactNode } from 'react';

/** The frame of the static pages: a title, when the text last changed, and the text. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="prose-page mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl text-sage-900">{title}</h1>
      <p className="mt-2 text-sm text-stone-500">Last updated {updated}</p>
      {children}
    </article>
  );
}
