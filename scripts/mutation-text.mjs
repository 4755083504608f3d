/**
 * A Stryker ignorer (stryker.config.json `ignorers`): the text a verdict shows a person is not
 * mutated. A finding's `expected` and `actual` (arguments 2 and 3 of `finding(...)`), the title of a
 * judge's `v.check(...)` and `v.unverified(...)` with its reason, a judge's `notExercised`, and what
 * a check computes as its `actual` text (or a literal `expected` text) before it makes the finding are
 * explanations: no verdict reads them, so a mutant of them only asks a test to repeat the wording.
 * Everything that decides `ok`, and every string compared or searched for, is still mutated.
 */
const TEXT_ARGUMENTS = new Map([
  ['finding', [1, 2]],
  ['check', [0]],
  ['unverified', [0, 1]],
]);

function calleeName(call) {
  const callee = call.callee;
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

export const humanText = {
  shouldIgnore(path) {
    const parent = path.parentPath;
    if (!parent) return undefined;
    if (parent.isCallExpression() && path.listKey === 'arguments') {
      const name = calleeName(parent.node);
      const indexes = name === undefined ? undefined : TEXT_ARGUMENTS.get(name);
      // `finding` is the check layer's one constructor; `check` and `unverified` take a finding's title only in a judge (v.check).
      if (indexes?.includes(path.key) && (name === 'finding' || parent.node.callee.type === 'MemberExpression')) {
        return `the text of a verdict (${name}'s argument ${Number(path.key) + 1}) decides nothing`;
      }
    }
    const named = (id) => id.type === 'Identifier' && id.name;
    if (parent.isVariableDeclarator() && path.key === 'init') {
      const name = named(parent.node.id);
      if (name === 'actual' || (name === 'expected' && (path.isStringLiteral() || path.isTemplateLiteral()))) return `a finding's ${name} text decides nothing`;
    }
    if (parent.isAssignmentExpression() && path.key === 'right' && named(parent.node.left) === 'actual') return "a finding's actual text decides nothing";
    if (
      parent.isObjectProperty() &&
      path.key === 'value' &&
      !parent.node.computed &&
      parent.node.key.type === 'Identifier' &&
      parent.node.key.name === 'notExercised'
    ) {
      return "a judge's notExercised reason decides nothing";
    }
    return undefined;
  },
};

export const strykerPlugins = [{ kind: 'Ignore', name: 'human-text', value: humanText }];
