/**
 * Finds verdicts that look at nothing: a condition written as a constant where a check records its
 * verdict. Read on the TypeScript syntax tree, not line by line, so a condition Biome wraps onto the
 * next line (or a comment between) is found as well as one on the same line:
 *
 * - `finding(COND, expected, actual)`: the condition, its first argument;
 * - `t.check(rule, title, FINDING)` and `t.soft(...)`: the finding, their third argument;
 * - `{ ok: COND }`: a finding written out.
 *
 * A constant is a literal (`true`, `0`, `''`, `null`, `undefined`) or an expression made only of
 * literals (`!0`, `1 === 1`, `(true)`, `true ? a : b`... with a constant condition).
 */
import ts from 'typescript';

export interface ConstantCondition {
  /** 1-based line of the constant. */
  readonly line: number;
  readonly text: string;
}

function isConstant(node: ts.Expression): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
    case ts.SyntaxKind.NumericLiteral:
    case ts.SyntaxKind.BigIntLiteral:
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
      return true;
    case ts.SyntaxKind.Identifier:
      return (node as ts.Identifier).text === 'undefined';
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node))
    return isConstant(node.expression);
  if (ts.isPrefixUnaryExpression(node)) return isConstant(node.operand);
  if (ts.isBinaryExpression(node)) return isConstant(node.left) && isConstant(node.right);
  if (ts.isConditionalExpression(node)) return isConstant(node.condition) || (isConstant(node.whenTrue) && isConstant(node.whenFalse));
  return false;
}

/** The name a call is made by: `finding(...)` → finding, `t.check(...)` → check. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** Which argument of a call holds the condition, by the callee's name. */
const CONDITION_ARGUMENT: Readonly<Record<string, number>> = { finding: 0, check: 2, soft: 2 };

export function constantConditions(source: string, fileName = 'source.ts'): ConstantCondition[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ConstantCondition[] = [];
  const report = (node: ts.Node) =>
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.getText(file).replace(/\s+/g, ' ') });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const index = name === undefined ? undefined : CONDITION_ARGUMENT[name];
      const condition = index === undefined ? undefined : node.arguments[index];
      if (condition !== undefined && isConstant(condition)) report(condition);
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === 'ok' && isConstant(node.initializer)) report(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
