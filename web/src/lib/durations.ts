// A length of time as the talk statistics show it, the same on a recording's page and in the talk
// report: tenths of a second under a minute ("2.6 s"), whole seconds beyond ("1 min 05 s"). A
// clock time such as 0:03 read as a length disagreed with the report's 2.6 s for the same call.
export function formatDuration(seconds: number): string {
  const value = Math.max(0, seconds);
  if (value < 59.95) return `${value.toFixed(1)} s`;
  const whole = Math.round(value);
  const minutes = Math.floor(whole / 60);
  return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
}
