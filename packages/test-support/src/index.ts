/**
 * What tests in several packages of the workspace share. Test files import it as
 * `@s2-effect/test-support`, never from another package's test folder.
 */
export * from "./loopback.js"
export * from "./waitFor.js"
