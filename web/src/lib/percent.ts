// Shares shown as whole percents that add up to 100 (largest remainders): rounding each on its own
// showed two speakers at 50.5 % as 51 % and 51 %.

/** Whole percents of `shares` (fractions that sum to about 1), summing to 100 where they do. */
export function wholePercents(shares: readonly number[]): number[] {
  const exact = shares.map((share) => share * 100);
  const floors = exact.map(Math.floor);
  const total = Math.round(exact.reduce((sum, x) => sum + x, 0));
  let left = total - floors.reduce((sum, x) => sum + x, 0);
  const byRemainder = exact.map((x, i) => ({ i, rest: x - floors[i]! })).sort((a, b) => b.rest - a.rest);
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return floors;
}
