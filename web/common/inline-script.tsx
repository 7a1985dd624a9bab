/**
 * A script of the server's HTML, run while the document is parsed (before the app's own scripts),
 * under the page's CSP nonce. Callers pass `import.meta.env.SSR ? CODE : ''`: the code then ships
 * in the HTML only, not in every page's JavaScript. Hydration leaves a script's content as the
 * server wrote it, and the browser hides the nonce attribute once parsed, hence
 * suppressHydrationWarning (as React Router's <Scripts>).
 */
export function InlineScript({ nonce, code }: { nonce: string | undefined; code: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: constants of this app's modules, no outside input.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: code }} />;
}
