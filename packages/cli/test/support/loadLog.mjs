// `node --import` this file to log the URL of every module the process loads, one a line, into
// the file S2_LOAD_LOG names (loading.test.ts: which packages a command loads).
import { appendFileSync } from "node:fs"
import { registerHooks } from "node:module"

const log = process.env.S2_LOAD_LOG
if (log !== undefined && log !== "") {
  registerHooks({
    load: (url, context, next) => {
      appendFileSync(log, `${url}\n`)
      return next(url, context)
    }
  })
}
