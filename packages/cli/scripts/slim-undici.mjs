// What the bundled `s2` loads for undici (scripts/bundle.mjs aliases "undici" to a file written
// from this). undici's index loads all of undici — fetch, WebSocket, EventSource, caches, cookies,
// mocks, interceptors — on every start of a command that talks to the API, though
// `@effect/platform-node`'s HTTP client uses only `Agent`, `getGlobalDispatcher` and
// `Dispatcher#request` (undici's api methods, which the index installs on `Dispatcher.prototype`).
// Those are loaded at once, as the index loads them; every other export of undici is still there,
// under the same name, and loads the full index when first read.
import { createRequire } from "node:module"
import * as Path from "node:path"

/** The source of the stand-in for the undici that `@effect/platform-node` (found from `from`) uses. */
export const slimUndici = (from) => {
  const platformNode = createRequire(from).resolve("@effect/platform-node/NodeHttpClient")
  const index = createRequire(platformNode).resolve("undici")
  // The names undici exports, read from the version being bundled.
  const names = Object.keys(createRequire(index)(index))
  const at = (file) => JSON.stringify(Path.join(Path.dirname(index), file))
  return `"use strict"
const Dispatcher = require(${at("lib/dispatcher/dispatcher.js")})
Object.assign(Dispatcher.prototype, require(${at("lib/api/index.js")}))
const { getGlobalDispatcher, setGlobalDispatcher } = require(${at("lib/global.js")})
const eager = { Dispatcher, Agent: require(${at("lib/dispatcher/agent.js")}), getGlobalDispatcher, setGlobalDispatcher }
let full
for (const name of ${JSON.stringify(names)}) {
  Object.defineProperty(module.exports, name, name in eager
    ? { value: eager[name], enumerable: true }
    : { get: () => (full ??= require(${JSON.stringify(index)}))[name], enumerable: true })
}
`
}
