// The layout library of `s2`'s HTML maps (render/Map.ts): the UMD builds of d3-force and of the
// three d3 modules it needs, in load order, as one script that defines `globalThis.d3`. Read from
// node_modules when `s2` runs from its sources; scripts/bundle.mjs puts the same text into the
// published bundle, so the published `s2` reads no file to write a map.
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"

/** The dist folder of a package, resolved from `from` (a file). */
const distOf = (name, from) => Path.dirname(createRequire(from).resolve(name))

/** @returns {string} */
export const d3ForceSource = () => {
  const force = distOf("d3-force", import.meta.filename)
  const files = [
    Path.join(distOf("d3-dispatch", force), "d3-dispatch.min.js"),
    Path.join(distOf("d3-quadtree", force), "d3-quadtree.min.js"),
    Path.join(distOf("d3-timer", force), "d3-timer.min.js"),
    Path.join(force, "d3-force.min.js")
  ]
  // Their license (ISC, the same text in each) asks that its notice travel with every copy.
  const notice = Fs.readFileSync(Path.join(force, "..", "LICENSE"), "utf8").trim()
  const code = files.map((file) => Fs.readFileSync(file, "utf8").trim()).join("\n")
  if (/<\/script|\*\//i.test(notice) || /<\/script/i.test(code)) throw new Error("d3's text would end its <script>")
  return `/*\nd3-dispatch, d3-quadtree, d3-timer, d3-force (https://d3js.org):\n${notice}\n*/\n${code}`
}
