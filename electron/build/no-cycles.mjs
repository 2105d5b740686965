// Fails (exit 1) when production modules under electron/, shared/ and renderer/ import each other
// in a circle, printing one path around each circle. Imports are read and resolved with the
// TypeScript compiler API and the project's own tsconfig, so `npm run lint` needs no plugin.
//
// Type-only imports count as edges: a circle of types still ties the modules together (neither
// can be understood, moved or split without the other), which is what this check exists to stop.
// Test code (*.test.*, *.test-helper.*, test/ folders) is not production code and is left out.
//
// Usage: node electron/build/no-cycles.mjs [--root DIR]   (DIR defaults to the repository root)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE_DIRS = ['electron', 'shared', 'renderer'];
const SOURCE_FILE = /\.(ts|tsx|mts)$/;
const NOT_PRODUCTION = [/\.test\.[cm]?tsx?$/, /\.test-helper\.[cm]?tsx?$/, /\.d\.ts$/, /(^|\/)test\//, /(^|\/)node_modules\//];

function isProduction(rel) {
  return SOURCE_FILE.test(rel) && !NOT_PRODUCTION.some((re) => re.test(rel));
}

function listFiles(root) {
  const out = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (isProduction(path.relative(root, full).split(path.sep).join('/'))) out.push(full);
    }
  };
  for (const d of SOURCE_DIRS) walk(path.join(root, d));
  return out.sort();
}

function compilerOptions(root) {
  const file = path.join(root, 'tsconfig.json');
  if (!fs.existsSync(file)) return { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowJs: false };
  const read = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, root).options;
}

/** Every module specifier a file imports: static, re-exports, `import x = require()`, dynamic
 * `import()` and `import('x').T` type references. */
function specifiersOf(file) {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The import graph among production modules: file -> files it imports. */
export function importGraph(root) {
  const options = compilerOptions(root);
  const files = listFiles(root);
  const known = new Set(files);
  const host = ts.createCompilerHost(options);
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const spec of specifiersOf(file)) {
      if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
      const resolved = ts.resolveModuleName(spec, file, options, host).resolvedModule?.resolvedFileName;
      if (resolved && known.has(path.resolve(resolved))) targets.add(path.resolve(resolved));
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one module (or a self-import), each as one
 * concrete path around it (Tarjan, iterative so deep graphs cannot overflow the stack). */
export function findCycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = graph.get(node) ?? [];
      if (i < next.length) {
        frame[1] = i + 1;
        const to = next[i];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfImport = component.length === 1 && (graph.get(node) ?? []).includes(node);
        if (component.length > 1 || selfImport) components.push(component);
      }
    }
  }
  return components.map((c) => pathAround(graph, new Set(c)));
}

/** A shortest circle through the component's first module (breadth-first inside it). */
function pathAround(graph, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const circle = [start];
        for (let at = node; at !== start; at = previous.get(at)) circle.splice(1, 0, at);
        return [...circle, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

function main() {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = path.resolve(rootAt >= 0 ? args[rootAt + 1] : path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
  const cycles = findCycles(importGraph(root));
  if (cycles.length === 0) return;
  for (const c of cycles) process.stderr.write(`import cycle: ${c.map((f) => path.relative(root, f)).join(' -> ')}\n`);
  process.stderr.write(
    `${cycles.length} import cycle(s) among production modules; break each by passing what the lower module needs instead of importing its caller.\n`,
  );
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
