import { describe, expect, it, test } from 'vitest';
import { defaultAnalysisScenario, latestPerScenario } from './latest-per-scenario.ts';

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

describe('defaultAnalysisScenario', () => {
  const scenarios = [
    { id: 'default', created_at: '2026-11-01T00:00:00Z' },
    { id: 'qa', created_at: '2026-11-20T00:00:00Z' },
    { id: 'sales', created_at: '2026-11-10T00:00:00Z' },
  ];
  test('the scenario of the latest analysis, while it exists', () => {
    const runs = [
      { analysis_scenario_id: 'sales', created_at: '2026-11-21T00:00:00Z' },
      { analysis_scenario_id: 'gone', created_at: '2026-11-22T00:00:00Z' },
      { analysis_scenario_id: 'default', created_at: '2026-11-02T00:00:00Z' },
    ];
    expect(defaultAnalysisScenario(scenarios, runs)).toBe('sales');
  });
  test('else the automatic one, else the newest', () => {
    expect(defaultAnalysisScenario([...scenarios.slice(0, 2), { ...scenarios[2]!, auto: true }], [])).toBe('sales');
    expect(defaultAnalysisScenario(scenarios, [])).toBe('qa');
    expect(defaultAnalysisScenario([], [])).toBeNull();
  });
});
