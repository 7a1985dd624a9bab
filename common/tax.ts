/**
 * State-level sales tax by US state, in basis points (1/100 of a percent). Local add-ons are
 * not included; a state missing here (or outside the US) is taxed at 0.
 */
export const stateTaxBasisPoints: Readonly<Record<string, number>> = {
  AL: 400,
  AZ: 560,
  AR: 650,
  CA: 725,
  CO: 290,
  CT: 635,
  FL: 600,
  GA: 400,
  HI: 400,
  ID: 600,
  IL: 625,
  IN: 700,
  IA: 600,
  KS: 650,
  KY: 600,
  LA: 500,
  ME: 550,
  MD: 600,
  MA: 625,
  MI: 600,
  MN: 688,
  MS: 700,
  MO: 423,
  NE: 550,
  NV: 685,
  NJ: 663,
  NM: 488,
  NY: 400,
  NC: 475,
  ND: 500,
  OH: 575,
  OK: 450,
  PA: 600,
  RI: 700,
  SC: 600,
  SD: 420,
  TN: 700,
  TX: 625,
  UT: 610,
  VT: 600,
  VA: 530,
  WA: 650,
  WV: 600,
  WI: 500,
  WY: 400,
  DC: 600,
};

/** Sales tax in cents on a taxable amount in cents, rounded to the nearest cent. */
export function salesTax(amountCents: number, country: string, state: string): number {
  if (country.toUpperCase() !== 'US') return 0;
  const rate = stateTaxBasisPoints[state.trim().toUpperCase()] ?? 0;
  return Math.round((amountCents * rate) / 10_000);
}
