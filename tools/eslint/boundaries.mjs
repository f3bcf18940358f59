// Architecture boundaries as lint rules (ADR 0027).
//
// Every import is judged by where it resolves, not by how it is spelled: a relative path is resolved against the
// importing file, '@market/<name>/…' against the workspace of that name. From apps/bidding-service/src/a/b.ts,
// '../../../billing-service/src/z' and '../../../../apps/billing-service/src/z' are both "apps/billing-service/src/z".
// Nothing is looked up on disk except the workspaces' package names, so an import of a file that does not exist (yet)
// is judged the same as one that does.
//
//   architecture/project-imports  which projects (apps/<x>, libs/<x>, other folders) and which npm packages a
//                                 project may import besides its own files; and a module named by anything but a
//                                 string (a template with ${…}, a variable) is reported, as it cannot be judged
//   architecture/feature-imports  web: shared code (api/, lib/, components/) never imports features/, and one
//                                 feature never imports another
//   architecture/web-layers       web: layers point down, app ← features ← components ← lib, with api (and the
//                                 session state built on it) beside lib
//   architecture/sub-domains      a service split into sub-domain folders (bidding): a repository never imports another
//                                 sub-domain's repository, and the shared core imports no sub-domain
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is tools/eslint/boundaries.mjs), whichever folder ESLint is started from. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const posix = (p) => p.split(path.sep).join('/');

/** Package name → workspace folder ('@market/domain' → 'libs/domain'), from each apps/<x> and libs/<x> package.json. */
let workspaceFolders;
function workspaces() {
  if (!workspaceFolders) {
    workspaceFolders = new Map();
    for (const group of ['apps', 'libs']) {
      for (const dir of readdirSync(path.join(ROOT, group))) {
        try {
          const { name } = JSON.parse(readFileSync(path.join(ROOT, group, dir, 'package.json'), 'utf8'));
          if (name) workspaceFolders.set(name, `${group}/${dir}`);
        } catch {
          // a folder without a package.json is no workspace
        }
      }
    }
  }
  return workspaceFolders;
}

/**
 * Where an import specifier points: `{ path }` relative to the repository root (posix; starts with '../' when it leaves
 * the repository), or `{ pkg }` for an npm package or node built-in ('zod', '@nestjs/common', 'node:fs', 'fs').
 */
function resolveSpecifier(specifier, filename) {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) {
    return { path: posix(path.relative(ROOT, path.resolve(path.dirname(filename), specifier))) };
  }
  const parts = specifier.split('/');
  const pkg = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const workspace = workspaces().get(pkg);
  if (workspace) return { path: [workspace, ...parts.slice(pkg.split('/').length)].join('/') };
  return { pkg };
}

/** The project a repository path belongs to: 'apps/<x>' or 'libs/<x>', else its first folder ('scripts'). */
function projectOf(repoPath) {
  const parts = repoPath.split('/');
  return parts[0] === 'apps' || parts[0] === 'libs' ? parts.slice(0, 2).join('/') : parts[0];
}

/** 'libs/*' or 'scripts/lib' → does `repoPath` lie inside it? ('*' is one folder name.) */
function inside(repoPath, pattern) {
  const re = pattern
    .split('/')
    .map((seg) => (seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${re}(/|$)`).test(repoPath);
}

function literalString(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'TSLiteralType') return literalString(node.literal);
  return undefined;
}

const JEST_MODULE_CALLS = new Set(['mock', 'doMock', 'unmock', 'setMock', 'requireActual', 'requireMock', 'createMockFromModule']);

const isIdentifier = (node, name) => node?.type === 'Identifier' && (name === undefined || node.name === name);
const isMember = (node, property) =>
  node?.type === 'MemberExpression' && !node.computed && isIdentifier(node.property, property);

/**
 * The variable `identifier` names, if the file declares it (an import, a const, a parameter); undefined for a global
 * such as `require`, which the config declares without a definition in the code.
 */
function declaredVariable(context, identifier) {
  for (let scope = context.sourceCode.getScope(identifier); scope; scope = scope.upper) {
    const variable = scope.set.get(identifier.name);
    if (variable) return variable.defs.length ? variable : undefined;
  }
  return undefined;
}

/** The initialiser of a `const x = …` that `identifier` names, else undefined. */
function constInit(context, identifier) {
  const def = declaredVariable(context, identifier)?.defs[0];
  if (def?.type !== 'Variable' || def.parent?.kind !== 'const' || !isIdentifier(def.node.id)) return undefined;
  return def.node.init ?? undefined;
}

/** `createRequire`, `module.createRequire`, or a name imported as createRequire from 'module' / 'node:module'. */
function isCreateRequire(context, callee) {
  if (isMember(callee, 'createRequire')) return true;
  if (!isIdentifier(callee)) return false;
  const def = declaredVariable(context, callee)?.defs[0];
  if (!def) return callee.name === 'createRequire';
  if (def.type !== 'ImportBinding' || def.node.type !== 'ImportSpecifier') return false;
  const imported = def.node.imported.name ?? def.node.imported.value;
  return imported === 'createRequire' && ['module', 'node:module'].includes(def.parent.source.value);
}

/**
 * Does `node` evaluate to a require function: the global `require`, the result of a `createRequire(…)` call, or a
 * const bound to either (`const req = createRequire(import.meta.url)`)?
 */
function isRequireFunction(context, node, depth = 0) {
  if (!node || depth > 4) return false;
  if (node.type === 'CallExpression') return isCreateRequire(context, node.callee);
  if (!isIdentifier(node)) return false;
  if (node.name === 'require' && !declaredVariable(context, node)) return true;
  return isRequireFunction(context, constInit(context, node), depth + 1);
}

/**
 * Which argument of a call names a module, if the call is one that loads or resolves a module: require(),
 * require.resolve(), a createRequire(…) result and its .resolve(), import.meta.resolve() and jest.mock() and the like.
 */
function moduleArgument(context, node) {
  const { callee } = node;
  const loads =
    isRequireFunction(context, callee) ||
    (isMember(callee, 'resolve') && isRequireFunction(context, callee.object)) ||
    (isMember(callee, 'resolve') && callee.object.type === 'MetaProperty' && callee.object.meta.name === 'import') ||
    (callee.type === 'MemberExpression' &&
      isIdentifier(callee.object, 'jest') &&
      !callee.computed &&
      isIdentifier(callee.property) &&
      JEST_MODULE_CALLS.has(callee.property.name));
  return loads ? node.arguments[0] : undefined;
}

/**
 * Calls `check(specifier, node)` for every module a file names: import/export … from, import(), require(),
 * require.resolve(), createRequire(…)(), import.meta.resolve(), jest.mock() and the like, and TS import forms. A
 * specifier that is no string (a template with expressions, a variable) goes to `dynamic(node)` instead, if given.
 */
function onEveryImport(context, check, dynamic) {
  const visit = (node) => {
    if (!node) return;
    const specifier = literalString(node);
    if (specifier !== undefined) check(specifier, node);
    else if (dynamic) dynamic(node);
  };
  return {
    ImportDeclaration: (node) => visit(node.source),
    ExportNamedDeclaration: (node) => visit(node.source),
    ExportAllDeclaration: (node) => visit(node.source),
    ImportExpression: (node) => visit(node.source),
    TSExternalModuleReference: (node) => visit(node.expression),
    TSImportType: (node) => visit(node.source ?? node.argument),
    CallExpression(node) {
      const argument = moduleArgument(context, node);
      if (argument) visit(argument);
    },
  };
}

const projectImports = {
  meta: {
    type: 'problem',
    docs: { description: 'A project imports only its own files, the projects it is allowed, and allowed npm packages (ADR 0027).' },
    schema: [
      {
        type: 'object',
        properties: {
          allow: { type: 'array', items: { type: 'string' } },
          packages: { anyOf: [{ const: '*' }, { type: 'array', items: { type: 'string' } }] },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      project:
        "{{from}} may not import '{{specifier}}': it resolves into {{to}}. Allowed besides its own files: {{allowed}} (ADR 0027).",
      package: "{{from}} may not import the package '{{pkg}}'. Allowed packages: {{allowed}} (ADR 0027).",
      dynamicSpecifier: 'Import paths must be literal strings so the architecture can be checked (ADR 0027).',
    },
  },
  create(context) {
    const { allow = [], packages = '*' } = context.options[0] ?? {};
    const from = projectOf(posix(path.relative(ROOT, context.filename)));
    const check = (specifier, node) => {
      const target = resolveSpecifier(specifier, context.filename);
      if (target.pkg !== undefined) {
        if (packages === '*' || packages.includes(target.pkg)) return;
        const allowed = packages.length ? packages.join(', ') : 'none';
        context.report({ node, messageId: 'package', data: { from, pkg: target.pkg, allowed } });
        return;
      }
      if (inside(target.path, from) || allow.some((pattern) => inside(target.path, pattern))) return;
      const to = target.path.startsWith('..') ? 'a folder outside the repository' : projectOf(target.path);
      const allowed = allow.length ? allow.join(', ') : 'nothing';
      context.report({ node, messageId: 'project', data: { from, specifier, to, allowed } });
    };
    // A module named by anything but a string cannot be judged, whatever it would resolve to at run time.
    const dynamic = (node) => context.report({ node, messageId: 'dynamicSpecifier' });
    return onEveryImport(context, check, dynamic);
  },
};

const featureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Shared code never imports a feature, and a feature never imports another feature (ADR 0027).' },
    schema: [{ type: 'object', properties: { features: { type: 'string' } }, required: ['features'], additionalProperties: false }],
    messages: {
      sharedImportsFeature:
        "{{file}} is shared code and may not import '{{specifier}}' from feature '{{to}}': move what both need into lib/ or components/ (ADR 0027).",
      otherFeature:
        "Feature '{{from}}' may not import '{{specifier}}' from feature '{{to}}': move what both need into lib/ or components/ (ADR 0027).",
    },
  },
  create(context) {
    const featuresDir = context.options[0].features.replace(/\/$/, '');
    // 'apps/web/src/features/sell/steps/x.tsx' → 'sell'; undefined outside features/.
    const featureOf = (repoPath) =>
      repoPath.startsWith(`${featuresDir}/`) ? repoPath.slice(featuresDir.length + 1).split('/')[0] : undefined;
    const file = posix(path.relative(ROOT, context.filename));
    const from = featureOf(file);
    // A dynamic specifier is project-imports' to report (once, not by both rules).
    return onEveryImport(context, (specifier, node) => {
      const target = resolveSpecifier(specifier, context.filename);
      const to = target.path === undefined ? undefined : featureOf(target.path);
      if (to === undefined || to === from) return;
      const messageId = from === undefined ? 'sharedImportsFeature' : 'otherFeature';
      context.report({ node, messageId, data: { file, from, to, specifier } });
    });
  },
};

const webLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'Web layers point down: app ← features ← components ← lib, and api beside lib.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, may: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
        required: ['root', 'may'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward: "{{layer}}/ may not import '{{specifier}}' from {{to}}/: layers point down (app ← features ← components ← lib, api beside lib); {{layer}}/ may import {{allowed}}.",
    },
  },
  create(context) {
    const root = context.options[0].root.replace(/\/$/, '');
    const may = context.options[0].may;
    // 'apps/web/src/lib/money.ts' → 'lib'; undefined outside root or for a file directly in it (main.tsx).
    const layerOf = (repoPath) => {
      if (!repoPath.startsWith(`${root}/`)) return undefined;
      const parts = repoPath.slice(root.length + 1).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const layer = layerOf(posix(path.relative(ROOT, context.filename)));
    const allowed = layer === undefined ? undefined : may[layer];
    if (!allowed) return {};
    return onEveryImport(context, (specifier, node) => {
      const target = resolveSpecifier(specifier, context.filename);
      const to = target.path === undefined ? undefined : layerOf(target.path);
      // An import of a feature is feature-imports' to report (once, not by both rules).
      if (to === undefined || to === layer || to === 'features' || allowed.includes(to)) return;
      context.report({ node, messageId: 'upward', data: { layer, to, specifier, allowed: allowed.join(', ') || 'nothing else' } });
    });
  },
};

const subDomains = {
  meta: {
    type: 'problem',
    docs: { description: "A sub-domain's repository never imports another's; the shared core imports no sub-domain (ADR 0070)." },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, core: { type: 'array', items: { type: 'string' } }, open: { type: 'array', items: { type: 'string' } } },
        required: ['root', 'core', 'open'],
        additionalProperties: false,
      },
    ],
    messages: {
      repository:
        "{{file}} is a repository of '{{from}}' and may not import '{{specifier}}', a repository of '{{to}}': repositories read and write their own rows; a use case that needs both asks each (ADR 0070).",
      core: "{{file}} is in the shared core '{{from}}' and may not import '{{specifier}}' from sub-domain '{{to}}': the core sits below every sub-domain (ADR 0070).",
    },
  },
  create(context) {
    const root = context.options[0].root.replace(/\/$/, '');
    // core: below every sub-domain, importable by all; open: outside the rule (test helpers, migrations).
    const { core, open } = context.options[0];
    // 'apps/bidding-service/src/sales/sales.repository.ts' → 'sales'; undefined outside root or for a file directly in it.
    const folderOf = (repoPath) => {
      if (!repoPath.startsWith(`${root}/`)) return undefined;
      const parts = repoPath.slice(root.length + 1).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const isRepository = (repoPath) => /\.repository(\.ts)?$/.test(repoPath);
    const file = posix(path.relative(ROOT, context.filename));
    const from = folderOf(file);
    if (from === undefined || open.includes(from)) return {};
    return onEveryImport(context, (specifier, node) => {
      const target = resolveSpecifier(specifier, context.filename);
      const to = target.path === undefined ? undefined : folderOf(target.path);
      if (to === undefined || to === from || core.includes(to) || open.includes(to)) return;
      if (core.includes(from)) context.report({ node, messageId: 'core', data: { file, from, to, specifier } });
      else if (isRepository(file) && isRepository(target.path)) context.report({ node, messageId: 'repository', data: { file, from, to, specifier } });
    });
  },
};

export default {
  meta: { name: 'architecture' },
  rules: { 'project-imports': projectImports, 'feature-imports': featureImports, 'web-layers': webLayers, 'sub-domains': subDomains },
};
