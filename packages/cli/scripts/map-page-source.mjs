// The code of `s2`'s HTML maps (src/render/map/*.js), as the text of a <script> element: read
// from the sources when `s2` runs from them; scripts/bundle.mjs puts the same text into the
// published bundle, as it does d3's (d3-source.mjs), so the published `s2` reads no file to write a map.
import * as Fs from "node:fs"
import * as Path from "node:path"

/** The page's parts, in the order they run: each uses only what the ones before it define. */
const parts = ["dom.js", "data.js", "look.js", "layout.js", "labels.js", "picture.js", "side.js", "page.js"]

/** @returns {string} */
export const mapPageSource = () => {
  const code = parts.map((part) => Fs.readFileSync(Path.join(import.meta.dirname, "../src/render/map", part), "utf8"))
    .join("\n")
  // An inline script ends at the first `</script`; `<!--` and `<script` change how HTML reads the rest.
  if (/<\/script|<!--|<script/i.test(code)) throw new Error("the map's page code would end its <script>")
  return code
}
