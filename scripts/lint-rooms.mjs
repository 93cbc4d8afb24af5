// oxlint plugin `rooms` (.oxlintrc.json, docs/development.md "Lint"): a concept that has a room is reached
// only from it. Each rule flags every use; .oxlintrc.json turns it on for server/src and off in the room.

/** The string of a call's first argument, when it is a plain literal. */
const firstString = (node) => {
  const arg = node.arguments[0];
  if (arg?.type === 'Literal' && typeof arg.value === 'string') return arg.value;
  if (arg?.type === 'TemplateLiteral' && arg.expressions.length === 0) return arg.quasis[0].value.cooked;
  return null;
};

/** `x.name(...)` (or `name(...)`) with a first argument `wanted` accepts. */
const calls = (node, names, wanted) => {
  const callee = node.callee;
  const name =
    callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : callee.type === 'Identifier' ? callee.name : null;
  const value = firstString(node);
  return names.includes(name) && value !== null && wanted(value);
};

/** A rule that reports the calls `isUse` accepts and the imports or requires of `modules`. */
const roomRule = (message, isUse, modules = []) => ({
  meta: { type: 'problem', docs: { description: message } },
  create(context) {
    const report = (node) => context.report({ node, message });
    return {
      CallExpression(node) {
        if (isUse(node) || calls(node, ['require'], (name) => modules.includes(name))) report(node);
      },
      ImportDeclaration(node) {
        if (modules.includes(node.source.value)) report(node);
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && modules.includes(node.source.value)) report(node);
      },
    };
  },
});

const plugin = {
  meta: { name: 'rooms' },
  rules: {
    // The e-mail plugin: sending, templates and the queue live in server/src/mail (sendMail).
    'email-plugin': roomRule(
      'Only server/src/mail touches the e-mail plugin: send through sendMail (server/src/mail/send.ts).',
      (node) => calls(node, ['plugin'], (name) => name === 'email') || calls(node, ['service'], (name) => name.startsWith('plugin::email')),
    ),
    // Tokens: signed, recorded, checked and revoked in server/src/security/sessions.
    'token-signing': roomRule(
      'Only server/src/security/sessions signs or verifies tokens: call issueSession (server/src/security/sessions/tokens.ts).',
      (node) => calls(node, ['service', 'getService'], (name) => name === 'jwt' || name === 'plugin::users-permissions.jwt'),
      ['jsonwebtoken'],
    ),
  },
};

export default plugin;
