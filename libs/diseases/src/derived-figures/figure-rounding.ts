/** Decimals of every derived figure. */
export const FIGURE_DECIMALS = 3;

/** `value` rounded to 3 decimals, halves away from zero (symmetric for negative days), never `-0`. */
export function roundFigure(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const scaled = Math.round(Math.abs(value) * 10 ** FIGURE_DECIMALS) / 10 ** FIGURE_DECIMALS;
  const rounded = value < 0 ? -scaled : scaled;
  return rounded === 0 ? 0 : rounded;
}

/** `count` per million people; null without a population (or a population of 0). */
export function perMillion(count: number | null, population: number | null): number | null {
  if (count === null || population === null || !(population > 0)) return null;
  return (count * 1_000_000) / population;
}
