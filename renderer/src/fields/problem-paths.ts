/**
 * Where a problem inside a value is: the server names fields inside a column's value by a path
 * (`sections[2].image`, `sections[2].gallery[0].image`). Each level of the form takes its first
 * step and hands the rest to the field it names.
 */

/** A path's first step (a name or `[index]`) and the rest, without a leading `.`. */
export function firstStep(path: string): { step: string; rest: string } {
  const match = /^(\[\d+\]|[^.[]+)\.?(.*)$/s.exec(path);
  if (!match) return { step: path, rest: '' };
  return { step: match[1], rest: match[2] };
}

/**
 * Problems whose path starts inside a value, by where they are relative to it: `own` for the value
 * itself (`sections`), `inside` keyed by the rest of the path (`[2].image` under `sections`).
 */
export interface PathProblems {
  own?: string;
  inside: Record<string, string>;
}

/** The problems at and under one step (`title`, `[2]`) of relative paths (`[2].image`, `title`). */
export function problemsOf(problems: Readonly<Record<string, string>> | undefined, step: string): PathProblems {
  const found: PathProblems = { inside: {} };
  for (const [path, problem] of Object.entries(problems ?? {})) {
    const split = firstStep(path);
    if (split.step !== step) continue;
    if (split.rest === '') found.own = problem;
    else found.inside[split.rest] = problem;
  }
  return found;
}
