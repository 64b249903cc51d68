// better-sqlite3 (the SQLite example in docs/) builds from source where its prebuilt binary cannot be
// downloaded. pnpm passes lifecycle scripts only a few environment variables, so point node-gyp at the
// headers of the Node that runs the install: the ones its own distribution ships (the npm registry's
// `node` package that .ci/node.sh installs has them), or the machine's when they are that version's.
const fs = require("node:fs")
const path = require("node:path")

const headersOf = (dir) => {
  try {
    const h = fs.readFileSync(path.join(dir, "include/node/node_version.h"), "utf8")
    const v = ["MAJOR", "MINOR", "PATCH"].map((k) => h.match(new RegExp(`define NODE_${k}_VERSION (\\d+)`))?.[1])
    return v.join(".") === process.versions.node
  } catch {
    return false
  }
}

const nodedir = () =>
  [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), ".."), "/usr"]
    .find((dir) => dir !== undefined && headersOf(dir))

module.exports = {
  hooks: {
    updateConfig(config) {
      const dir = nodedir()
      if (dir !== undefined) config.extraEnv = { ...config.extraEnv, npm_config_nodedir: dir }
      return config
    }
  }
}
