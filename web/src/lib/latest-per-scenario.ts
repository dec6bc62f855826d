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

/**
 * The scenario a recording's "Analyse with" starts on: the one its latest analysis ran with
 * (still there), else the workspace's automatic one, else the newest (a team adds Call QA after
 * the default). Null when there is none.
 */
export function defaultAnalysisScenario(scenarios: readonly { id: string; auto?: boolean; created_at: string }[], runs: readonly { analysis_scenario_id: string; created_at: string }[]): string | null {
  const ids = new Set(scenarios.map((s) => s.id));
  const lastRun = [...runs].sort((a, b) => b.created_at.localeCompare(a.created_at)).find((run) => ids.has(run.analysis_scenario_id));
  if (lastRun) return lastRun.analysis_scenario_id;
  const auto = scenarios.find((s) => s.auto);
  if (auto) return auto.id;
  return [...scenarios].sort((a, b) => b.created_at.localeCompare(a.created_at))[0]?.id ?? null;
}
