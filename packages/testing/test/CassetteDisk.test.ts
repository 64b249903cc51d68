/**
 * A cassette recording onto a disk that cannot take it: a full disk is said in the system's words
 * with the platform's error kept as the cause, and a directory that cannot be made (anywhere under
 * /proc, where Node's recursive mkdir never returns) fails the write at once.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { describe, expect, it } from "@effect/vitest"
import { SemanticScholar } from "@s2-effect/core"
import { Cause, Effect, Exit, FileSystem, Layer, Option, PlatformError } from "effect"
import { HttpClient, HttpClientResponse } from "effect/http"
import * as Nfs from "node:fs"
import * as nodePath from "node:path"
import { Cassette } from "../src/index.js"

/** A server that knows one paper. */
const answer = HttpClient.make((request) =>
  Effect.succeed(HttpClientResponse.fromWeb(request, Response.json({ paperId: "p1", title: "T" })))
)

/** `getPaper` recorded into the cassette at `path`: the error it fails with. */
const recordedError = (path: string) =>
  Effect.flatMap(SemanticScholar, (s2) => s2.getPaper("CorpusId:1", { fields: ["title"] })).pipe(
    Effect.provide(SemanticScholar.layer({ retry: false, rateLimit: false })),
    Effect.provide(Cassette.layer({ path, mode: "record" })),
    Effect.provideService(HttpClient.HttpClient, answer),
    Effect.exit,
    Effect.map((exit) => Exit.isSuccess(exit) ? undefined : Option.getOrUndefined(Cause.findErrorOption(exit.cause)))
  )

/** The cassette's own error under the client's. */
const cassetteError = (error: unknown): Cassette.CassetteFileError | undefined => {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 10; depth++) {
    if (e instanceof Cassette.CassetteFileError) return e
    e = (e as { readonly cause?: unknown }).cause
  }
  return undefined
}

/** ENOSPC as `NodeFileSystem` reports it: the call and the descriptor, the words only in the cause. */
const noSpace = (path: string) =>
  PlatformError.systemError({
    _tag: "Unknown",
    module: "FileSystem",
    method: "writeFile",
    pathOrDescriptor: path,
    cause: Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: "ENOSPC", syscall: "write" })
  })

describe("Cassette on a disk that cannot take it", () => {
  it.effect("a full disk: the message says ENOSPC in the system's words, the platform's error is the cause", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dir = yield* fs.makeTempDirectoryScoped({ prefix: "s2-cassette-disk-" })
      const path = nodePath.join(dir, "s2.cassette.json")
      const full = Layer.succeed(FileSystem.FileSystem)(
        FileSystem.FileSystem.of({ ...fs, writeFile: (file) => Effect.fail(noSpace(file)) })
      )
      const error = yield* recordedError(path).pipe(Effect.provide(full))
      expect(error).toMatchObject({ _tag: "TransportError" })
      const cassette = cassetteError(error)
      expect(cassette?.message).toBe(`cassette ${path} cannot be written: no space left on device (ENOSPC)`)
      expect(PlatformError.isPlatformError(cassette?.cause)).toBe(true)
      // Nothing left behind: no temporary file, no lock.
      expect(yield* fs.readDirectory(dir)).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(NodeFileSystem.layer)))

  it.effect.runIf(process.platform === "linux" && Nfs.existsSync("/proc/self"))(
    "a directory that cannot be made (under /proc): the write fails at once, naming it",
    () =>
      Effect.gen(function*() {
        const path = "/proc/s2-effect-test/cassettes/s2.cassette.json"
        const cassette = cassetteError(yield* recordedError(path))
        expect(cassette?.message).toBe(
          `cassette ${path} cannot be written: its directory /proc/s2-effect-test/cassettes cannot be made: ` +
            "no such file or directory (ENOENT)"
        )
        expect(PlatformError.isPlatformError(cassette?.cause)).toBe(true)
      }).pipe(Effect.provide(NodeFileSystem.layer)),
    // Before the fix this never returned: the test's time-out is the failure.
    30_000
  )
})
