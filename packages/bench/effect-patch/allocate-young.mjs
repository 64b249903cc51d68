#!/usr/bin/env node
// Makes the patch in this directory: rewrites every `a.b = <function literal>` in the JavaScript
// files under a directory as `a.b = (0, <function literal>)`. V8 allocates a function literal
// assigned straight to a property in its old generation, where it keeps its young context (in
// Effect's channels: the element being processed) alive until a full collection; written through
// a comma expression, the same function is allocated young. Nothing else changes.
//
// The patch is not applied to the workspace (users install effect as released); it is kept for the
// report to Effect and for the bench's "patched" rows, which apply it to a private copy
// (packages/bench/src/patchedEffect.ts, NOTES.md). For a new version of effect:
//   cp -r "$(realpath packages/bench/node_modules/effect)" /tmp/effect && cd /tmp/effect
//   git init -q && git add -A && git commit -qm released
//   node <workspace>/packages/bench/effect-patch/allocate-young.mjs dist
//   git diff --full-index > <workspace>/packages/bench/effect-patch/effect@<version>.patch
// and delete the old patch file; the bench applies the patch made for the installed version.
import * as Fs from "node:fs"
import * as Path from "node:path"
import ts from "typescript"

const root = process.argv[2]
if (root === undefined) {
  console.error("usage: allocate-young.mjs <directory of JavaScript files>")
  process.exit(2)
}

const rewrite = (file) => {
  const text = Fs.readFileSync(file, "utf8")
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const inserts = []
  const visit = (node) => {
    if (
      ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left)) &&
      (ts.isArrowFunction(node.right) || ts.isFunctionExpression(node.right))
    ) {
      inserts.push([node.right.getStart(source), "(0, "], [node.right.end, ")"])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  if (inserts.length === 0) return 0
  const out = inserts.sort((a, b) => b[0] - a[0]).reduce(
    (acc, [at, piece]) => acc.slice(0, at) + piece + acc.slice(at),
    text
  )
  Fs.writeFileSync(file, out)
  return inserts.length / 2
}

let sites = 0
for (const entry of Fs.readdirSync(root, { recursive: true })) {
  const file = Path.join(root, String(entry))
  if (/\.(c|m)?js$/.test(file) && Fs.statSync(file).isFile()) {
    const n = rewrite(file)
    if (n > 0) console.log(`${Path.relative(root, file)}: ${n}`)
    sites += n
  }
}
console.log(`${sites} assignments rewritten`)
