import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The rule sets the editor is held to: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** The impacts that fail a check; minor and moderate findings are left to review. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** One failed rule on a page, with the elements that break it. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  /** CSS selectors of the elements, with axe's one-line reason for each. */
  targets: { target: string; why: string }[];
}

/**
 * Runs axe-core on the page as it is now, with the WCAG A and AA rules, and returns its serious
 * and critical violations. axe is evaluated in the page rather than added as a <script>, so the
 * editor's Content-Security-Policy (no inline script) stays as strict as in use.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as any).axe?.run === 'function');
  if (!loaded) await page.evaluate(axe.source);
  const violations = (await page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations;
  }, WCAG_TAGS)) as axe.Result[];
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      helpUrl: violation.helpUrl,
      targets: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' '),
        why: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
}

/** The findings as a list a person reads: rule, impact and help, then each element and why. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings
    .map((finding) =>
      [
        `${finding.rule} (${finding.impact}): ${finding.help} ${finding.helpUrl}`,
        ...finding.targets.map(({ target, why }) => `    ${target}: ${why}`),
      ].join('\n'),
    )
    .join('\n');
}

/** Fails with a readable list when axe finds a serious or critical violation on the page; `where` names the screen. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const findings = await seriousViolations(page);
  if (findings.length > 0) {
    throw new Error(`axe-core found serious or critical violations on ${where}:\n${describeFindings(findings)}`);
  }
}

/**
 * Checks several screens of one walk-through and fails at its end with all of them: a violation on
 * one screen does not stop the walk (the screens after it depend on its steps).
 */
export function accessibilityWalk(): {
  check(page: Page, where: string): Promise<void>;
  /** Throws the screens' findings, if any, and starts over. */
  verify(): void;
} {
  let failed: string[] = [];
  return {
    async check(page, where) {
      const findings = await seriousViolations(page);
      if (findings.length > 0) failed.push(`on ${where}:\n${describeFindings(findings)}`);
    },
    verify() {
      const found = failed;
      failed = [];
      if (found.length > 0) throw new Error(`axe-core found serious or critical violations ${found.join('\n\n')}`);
    },
  };
}
