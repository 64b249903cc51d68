// better-sqlite3 (the SQLite example in docs/) builds from source where its prebuilt binary cannot be
// downloaded. pnpm passes lifecycle scripts only a few environment variables, so point node-gyp at
// the machine's Node headers here when they exist and nothing else was configured.
const fs = require("node:fs")

module.exports = {
  hooks: {
    updateConfig(config) {
      if (process.env.npm_config_nodedir === undefined && fs.existsSync("/usr/include/node/node_version.h")) {
        config.extraEnv = { ...config.extraEnv, npm_config_nodedir: "/usr" }
      }
      return config
    }
  }
}
