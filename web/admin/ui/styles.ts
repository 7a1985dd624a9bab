/** The back office's button and field styles, written once. */
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-sage-700 px-5 py-2 text-sm font-medium text-white hover:bg-sage-800 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full border border-sage-300 bg-white px-5 py-2 text-sm font-medium text-sage-900 hover:bg-sage-50 disabled:cursor-not-allowed disabled:opacity-60';
export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-red-700 px-5 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60';
export const smallButton =
  'inline-flex items-center justify-center rounded-full border border-sage-300 bg-white px-3 py-1 text-xs font-medium text-sage-900 hover:bg-sage-50 disabled:cursor-not-allowed disabled:opacity-60';
export const input =
  'block w-full rounded-lg border border-sage-200 bg-white px-3 py-2 text-sm text-stone-900 focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none';
export const label = 'block text-sm font-medium text-stone-800';
