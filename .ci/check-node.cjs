// Whether the Node running this is new enough for s2-effect: `engines.node` of the root package.json
// (">=22.19"). Run by pnpm before it installs anything (`pnpm:devPreinstall`), so that an install on
// an older Node stops at once with one line saying what to do, rather than installing for a Node the
// tests then do not run on (vitest 5 and Effect 4 need 22.19). `--quiet`: the exit code only
// (.ci/node.sh asks it of each Node it finds). CommonJS and old syntax: it must run on any Node.
"use strict"
const fs = require("fs")
const path = require("path")

const engines = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).engines
const wanted = /^>=\s*(\d+)\.(\d+)/.exec((engines && engines.node) || "")
if (wanted === null) throw new Error("package.json has no engines.node of the form >=MAJOR.MINOR")
const minimum = [Number(wanted[1]), Number(wanted[2])]
const version = process.versions.node
const parts = version.split(".").map(Number)
const ok = parts[0] > minimum[0] || (parts[0] === minimum[0] && parts[1] >= minimum[1])

if (!ok) {
  if (process.argv.indexOf("--quiet") < 0) {
    process.stderr.write(
      "s2-effect needs Node \u2265 " + minimum.join(".") + ", this is " + version +
        ": run `source .ci/node.sh` (it brings Node 24 from the npm registry into .node/), then the same command again\n"
    )
  }
  process.exit(1)
}
