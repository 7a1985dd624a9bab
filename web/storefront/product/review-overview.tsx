import type { ReviewAnalysis } from '#common/contracts/reviews.ts';

/** The review overview: hidden when it failed or the score is 0; the first three of each list. */
export function ReviewOverview({ analysis }: { analysis: ReviewAnalysis | null }) {
  if (!analysis || analysis.recommendationScore === 0) return null;
  const lists = [
    { title: 'What shoppers like', items: analysis.commonPraises },
    { title: 'What to know', items: analysis.commonConcerns },
    { title: 'Key insights', items: analysis.keyInsights },
  ].filter((list) => list.items.length > 0);
  return (
    <section aria-labelledby="overview-heading" className="rounded-2xl border border-sage-100 bg-white p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="overview-heading" className="font-serif text-2xl text-sage-900">
          Review overview
        </h2>
        <p className="text-sm text-stone-600">
          <span className="text-2xl font-semibold text-sage-800">{analysis.recommendationScore}%</span> recommend it
        </p>
      </div>
      <p className="mt-3 text-stone-700">{analysis.summary}</p>
      <div className="mt-5 grid gap-5 md:grid-cols-3">
        {lists.map((list) => (
          <div key={list.title}>
            <h3 className="text-sm font-semibold text-stone-800">{list.title}</h3>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
              {list.items.slice(0, 3).map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
