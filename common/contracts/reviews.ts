import * as z from 'zod/mini';

/** The review overview of a product (spec: "AI analysis"). */
export const ReviewAnalysis = z.object({
  /** Share of public reviews rated 4 stars or more, as a whole percent. */
  recommendationScore: z.int().check(z.gte(0), z.lte(100)),
  overallSentiment: z.enum(['positive', 'negative', 'neutral']),
  summary: z.string(),
  commonPraises: z.array(z.string()),
  commonConcerns: z.array(z.string()),
  keyInsights: z.array(z.string()),
});
export type ReviewAnalysis = z.infer<typeof ReviewAnalysis>;
