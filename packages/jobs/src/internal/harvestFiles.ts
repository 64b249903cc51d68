/**
 * Opening the files beside a harvest's output without ever going through a symbolic link: a link
 * there may have been planted by someone else (in a shared directory such as /tmp) to make the
 * harvest overwrite the file it points to. Links are found with `lstat` and refused; files are
 * opened with `noFollow` where the platform has it, so a link put in place after the check makes
 * the open fail instead. Only `FileSystem` and `Path`: no platform module.
 */
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Option from "effect/Option"
import * as Path from "effect/Path"
import type * as PlatformError from "effect/PlatformError"
import type * as Scope from "effect/Scope"
import type { File, Link } from "../HarvestError.js"
import { HarvestError } from "../HarvestError.js"
import { failed } from "./harvestCheckpoint.js"

/** The symbolic link at `at`; `None` when `at` is absent or anything else. */
export const linkAt = (
  file: File,
  at: string
): Effect.Effect<Option.Option<Link>, HarvestError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const info = yield* fs.lstat(at).pipe(
      Effect.map(Option.some),
      Effect.catchIf((error) => error.reason._tag === "NotFound", () => Effect.succeedNone)
    )
    if (Option.isNone(info) || info.value.type !== "SymbolicLink") return Option.none<Link>()
    const target = yield* fs.readLink(at)
    return Option.some({ path: at, target, resolved: path.resolve(path.dirname(at), target) })
  }).pipe(Effect.mapError((cause) => cause instanceof HarvestError ? cause : failed(file, at, "read")(cause)))

/** The refusal of a link found at one of a harvest's files. */
export const refuseLink = (file: File, link: Link): HarvestError =>
  new HarvestError({ reason: "Symlink", file, path: link.path, link })

/** Fails when `at` is a symbolic link. */
export const noLinkAt = (file: File, at: string) =>
  Effect.flatMap(
    linkAt(file, at),
    (link) => Option.isSome(link) ? Effect.fail(refuseLink(file, link.value)) : Effect.void
  )

/**
 * Opens `at` without following a link at its last component where the platform can (`noFollow`:
 * Node and Bun on POSIX); elsewhere (`BadArgument`) plainly, the `lstat` check before it standing.
 */
export const open = (
  at: string,
  flag: FileSystem.OpenFlag
): Effect.Effect<FileSystem.File, PlatformError.PlatformError, FileSystem.FileSystem | Scope.Scope> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.open(at, { flag, noFollow: true }).pipe(
      Effect.catchIf((error) => error.reason._tag === "BadArgument", () => fs.open(at, { flag }))
    ))

/** The text of a small file (a lock), read without following a link. */
export const readSmall = (at: string): Effect.Effect<string, PlatformError.PlatformError, FileSystem.FileSystem> =>
  Effect.scoped(Effect.gen(function*() {
    const file = yield* open(at, "r")
    const info = yield* file.stat
    const bytes = yield* file.readAlloc(Number(info.size))
    return Option.match(bytes, { onNone: () => "", onSome: (b) => new TextDecoder().decode(b) })
  }))
