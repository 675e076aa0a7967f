import ts from 'typescript';

/**
 * Finds text a person would read that is written in the source instead of a catalog: JSX text,
 * and string literals given to user-visible props (`aria-label`, `title`, `label`…), to calls that
 * show a message (`notify`, `useDocumentTitle`…) and to object members that become labels. Only
 * literals in value position count (the whole value, a branch of `?:`, a side of `??`/`||`/`&&`/`+`,
 * a template): arguments of other calls and comparisons are code, not text. A line marked
 * `i18n-exempt` (in a comment on it or the line before) is skipped, for text that is the same in
 * every language (code samples, the product's name).
 */

/** One piece of text found in the source. */
export interface LiteralFinding {
  line: number;
  text: string;
}

/** Props of DOM elements and of the editor's components whose values people read. */
export const VISIBLE_PROPS = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
  'title',
  'placeholder',
  'label',
  'message',
  'confirmLabel',
  'cancelLabel',
  'busyLabel',
  'description',
  'hint',
  'help',
  'heading',
  'caption',
  'emptyLabel',
  'notice',
]);

/** Functions whose string arguments end up on screen (toasts, banners, window titles, dialogs), and which. */
export const VISIBLE_CALLS = new Map<string, readonly number[] | 'all'>([
  ['notify', [1]],
  ['setBanner', 'all'],
  ['setNotice', 'all'],
  ['setMessage', 'all'],
  ['setStatus', 'all'],
  ['useDocumentTitle', 'all'],
  ['alert', 'all'],
  ['confirm', 'all'],
  ['prompt', 'all'],
]);

/** Object members that become labels, titles or messages. */
export const VISIBLE_MEMBERS = new Set(['label', 'title', 'message', 'description', 'hint', 'placeholder', 'help']);

const LETTER = /\p{L}/u;
const ENTITY = /&[a-zA-Z]+;|&#\d+;/g;

function hasLetters(text: string): boolean {
  return LETTER.test(text.replace(ENTITY, ''));
}

function nameOf(node: ts.Node): string | null {
  if (ts.isIdentifier(node) || ts.isStringLiteral(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isJsxNamespacedName(node)) return `${node.namespace.text}:${node.name.text}`;
  return null;
}

/** Literals that would be shown as they are, in value position of `expression`. */
function valueLiterals(expression: ts.Node | undefined, found: ts.Node[]): void {
  if (!expression) return;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    if (hasLetters(expression.text)) found.push(expression);
  } else if (ts.isTemplateExpression(expression)) {
    const texts = [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)];
    if (texts.some(hasLetters)) found.push(expression);
    else for (const span of expression.templateSpans) valueLiterals(span.expression, found);
  } else if (ts.isConditionalExpression(expression)) {
    valueLiterals(expression.whenTrue, found);
    valueLiterals(expression.whenFalse, found);
  } else if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (
      operator === ts.SyntaxKind.PlusToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.BarBarToken
    ) {
      valueLiterals(expression.left, found);
      valueLiterals(expression.right, found);
    } else if (operator === ts.SyntaxKind.AmpersandAmpersandToken) {
      valueLiterals(expression.right, found);
    }
  } else if (
    ts.isParenthesizedExpression(expression) ||
    ts.isAsExpression(expression) ||
    ts.isNonNullExpression(expression) ||
    ts.isSatisfiesExpression(expression) ||
    ts.isJsxExpression(expression)
  ) {
    valueLiterals(expression.expression, found);
  } else if (ts.isArrayLiteralExpression(expression)) {
    for (const element of expression.elements) valueLiterals(element, found);
  }
}

/** The text written in `source` (a .ts or .tsx file's contents) that belongs in a catalog. */
export function findLiterals(fileName: string, source: string): LiteralFinding[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lines = source.split('\n');
  const exempt = (line: number) => /i18n-exempt/.test(lines[line] ?? '') || /i18n-exempt/.test(lines[line - 1] ?? '');
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      if (hasLetters(node.text)) nodes.push(node);
    } else if (
      ts.isJsxExpression(node) &&
      node.parent &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      valueLiterals(node.expression, nodes);
    } else if (ts.isJsxAttribute(node)) {
      const name = nameOf(node.name);
      if (name && VISIBLE_PROPS.has(name)) valueLiterals(node.initializer, nodes);
    } else if (ts.isCallExpression(node)) {
      const name = nameOf(node.expression);
      const shown = name ? VISIBLE_CALLS.get(name) : undefined;
      node.arguments.forEach((argument, index) => {
        if (shown === 'all' || shown?.includes(index)) valueLiterals(argument, nodes);
      });
    } else if (ts.isPropertyAssignment(node)) {
      const name = nameOf(node.name);
      if (name && VISIBLE_MEMBERS.has(name)) valueLiterals(node.initializer, nodes);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const findings: LiteralFinding[] = [];
  for (const node of nodes) {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    if (exempt(line)) continue;
    findings.push({ line: line + 1, text: node.getText(file).trim().replace(/\s+/g, ' ').slice(0, 80) });
  }
  return findings;
}
