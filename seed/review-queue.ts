/**
 * Reviews waiting for the back office's moderation: not public, so they show in the Reviews tab
 * and to their authors only.
 */
export const moderationQueue = [
  {
    product: 'moon-lamp',
    reviewer: 'nightowl_jess',
    rating: 4,
    title: 'Pretty, but the remote is flimsy',
    content:
      'The moon texture is lovely and the warm setting is perfect for reading. The little remote feels cheap though, and the battery door popped off the first week.',
    daysAgo: 1,
    status: 'pending',
    moderation: null,
  },
  {
    product: 'desktop-fountain',
    reviewer: 'dealhunter_22',
    rating: 5,
    title: 'Cheaper fountains here',
    content:
      'Nice fountain. Get the same one cheaper at www.fountain-deals-now.example and use my code FREE50 for more!!!',
    daysAgo: 3,
    status: 'flagged',
    moderation: { flagged: true, reasons: ['Contains a link', 'Looks like promotion'] },
  },
  {
    product: 'himalayan-salt-lamp',
    reviewer: 'gr8fulgrace',
    rating: 1,
    title: 'Not what I expected',
    content:
      'Arrived and it was much smaller than I pictured from the photos. It does glow nicely but I expected a bigger lamp for the price.',
    daysAgo: 6,
    status: 'pending',
    moderation: null,
  },
] as const;
