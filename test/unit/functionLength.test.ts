// No function in src/ or the console runs past 100 lines (issue 38: a hub decides, then writes; a long function
// is the sign of one that does both). Counted from the TypeScript syntax tree, so a function's
// inner closures count toward it, as a reader meets them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const CONSOLE = join(ROOT, 'console', 'src');
const MAX_LINES = 100;

interface FunctionSpan {
  where: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A function's name as a reader would search for it: its own, or the variable or property it is assigned to. */
function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  if (own && (ts.isIdentifier(own) || ts.isStringLiteral(own))) return own.text;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return '(anonymous)';
}

/** Every function, method, arrow and accessor of one source text, with its length in lines. */
function functionSpans(fileName: string, text: string): FunctionSpan[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ where: `${fileName}:${first + 1} ${nameOf(node)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return spans;
}

describe('function length in src/ and the console', () => {
  const spans = [SRC, CONSOLE].flatMap((root) =>
    sourceFiles(root).flatMap((f) => functionSpans(relative(ROOT, f), readFileSync(f, 'utf8'))),
  );

  it('measures every function (the check is not vacuous)', () => {
    expect(spans.length).toBeGreaterThan(1000);
    expect(spans.some((s) => s.where.startsWith(join('console', 'src', 'pages')))).toBe(true);
  });

  it(`has no function over ${MAX_LINES} lines`, () => {
    const long = spans.filter((s) => s.lines > MAX_LINES).sort((a, b) => b.lines - a.lines);
    expect(long.map((s) => `${s.where} (${s.lines} lines)`)).toEqual([]);
  });

  it('counts a long arrow function with its closures', () => {
    const body = Array.from({ length: 120 }, (_, i) => `  const f${i} = () => ${i};`).join('\n');
    const [outer] = functionSpans('x.ts', `export const hub = () => {\n${body}\n};\n`);
    expect(outer).toEqual({ where: 'x.ts:1 hub', lines: 122 });
  });
});
