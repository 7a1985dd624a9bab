import { z } from 'zod';

/**
 * The one error body of the API. `error` is a sentence a person can read (the storefront shows
 * it as is); `code` is for programs; `field` names the bad input when there is one.
 */
export const ApiError = z.object({
  error: z.string(),
  code: z.string(),
  field: z.string().optional(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiError>;
