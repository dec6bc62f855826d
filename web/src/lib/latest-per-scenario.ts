// A recording's analysis results as its page shows them: each scenario's latest, its earlier ones under it.

/** Results newest first, grouped by scenario: each scenario's latest, its earlier ones folded under it. */
export function latestPerScenario<R extends { analysis_scenario_id: string }>(results: R[]): { latest: R; earlier: R[] }[] {
  const groups = new Map<string, { latest: R; earlier: R[] }>();
  for (const result of results) {
    const group = groups.get(result.analysis_scenario_id);
    if (group) group.earlier.push(result);
    else groups.set(result.analysis_scenario_id, { latest: result, earlier: [] });
  }
  return [...groups.values()];
}
