/** A stopwatch read in laps: each lap reports, under its name, the seconds since the previous lap (or the start). */
export function stopwatch(report: (stage: string, seconds: number) => void): (stage: string) => void {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    report(stage, (now - last) / 1000);
    last = now;
  };
}
