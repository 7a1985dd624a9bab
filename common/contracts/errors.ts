import * as z from 'zod/mini';

/**
 * The one error body of the API. `error` is a sentence a person can read (the storefront shows
 * it as is); `code` is for programs; `field` names the bad input when there is one.
 */
export const ApiError = z.object({
  error: z.string(),
  code: z.string(),
  field: z.optional(z.string()),
  issues: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
});
export type ApiError = z.infer<typeof ApiError>;
