/**
 * What tests in several packages of the workspace share. Test files import it as
 * `@s2-effect/test-support`, never from another package's test folder; the scripted `HttpClient` under
 * the client (whose `Seen` and `Handler` are not the loopback servers') as `@s2-effect/test-support/scripted`.
 */
export * from "./loopback.js"
export * from "./settle.js"
export * from "./waitFor.js"
