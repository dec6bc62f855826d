import { describe, expect, it } from 'vitest';
import { latestPerScenario } from './latest-per-scenario.ts';

describe('latestPerScenario', () => {
  it("keeps each scenario's first (newest) result on top and folds the rest under it, in order", () => {
    const results = [
      { id: 3, analysis_scenario_id: 'a' },
      { id: 2, analysis_scenario_id: 'b' },
      { id: 1, analysis_scenario_id: 'a' },
    ];
    expect(latestPerScenario(results)).toEqual([
      { latest: results[0], earlier: [results[2]] },
      { latest: results[1], earlier: [] },
    ]);
  });
});
