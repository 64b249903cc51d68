/**
 * The bench's "patched effect" rows: the same case bundled against a private copy of `effect` with
 * the patch in packages/bench/effect-patch applied (see NOTES.md). This is not what users get —
 * the workspace and npm install `effect` as released — and exists to measure the fix proposed
 * upstream side by side with the stock figure.
 */
import * as Data from "effect/Data"
import { spawnSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"

export type Patched = Data.TaggedEnum<{
  Ready: {
    /** esbuild options that bundle the patched copy in place of the installed `effect`. */
    readonly build: { readonly alias: Record<string, string>; readonly nodePaths: Array<string> }
  }
  Skipped: { readonly reason: string }
}>

export const Patched = Data.taggedEnum<Patched>()

/**
 * Copies the installed `effect` into `tmp` and applies the patch made for its version. The copy
 * replaces the installed package at bundle time (an esbuild alias), so nothing in node_modules
 * changes.
 */
export const patchedEffect = (tmp: string): Patched => {
  const here = import.meta.dirname
  const installed = Fs.realpathSync(Path.join(here, "../node_modules/effect"))
  const { version } = JSON.parse(Fs.readFileSync(Path.join(installed, "package.json"), "utf8")) as {
    version: string
  }
  const patch = Path.join(here, "../effect-patch", `effect@${version}.patch`)
  if (!Fs.existsSync(patch)) {
    return Patched.Skipped({
      reason: `no patch for effect ${version} in packages/bench/effect-patch (make one with allocate-young.mjs)`
    })
  }
  const copy = Path.join(tmp, `effect@${version}-patched`)
  Fs.cpSync(installed, copy, { recursive: true })
  const applied = spawnSync("patch", ["-p1", "-s", "-d", copy, "-i", patch], { encoding: "utf8" })
  if (applied.status !== 0) {
    return Patched.Skipped({ reason: `the patch does not apply: ${(applied.stderr || applied.stdout).trim()}` })
  }
  // Every import of `effect` or `effect/…` (the client's and @effect/platform-node's alike) goes to the
  // copy; effect's own dependencies are found beside the installed one.
  return Patched.Ready({ build: { alias: { effect: copy }, nodePaths: [Path.dirname(installed)] } })
}
