/**
 * Corpora built once per seed and size and reused: a file per corpus in the user's cache directory
 * holding what a build derives from the papers (the citation graph, the authors' tables and the
 * relevance-search index: about half of a build's CPU and all of the first search's), so that a
 * second emulator of the same seed and size starts in a fraction of the time. The papers are made
 * again from the seed. Node only (it reads and writes files).
 *
 * A file is named by seed, size and the generator's version (a hash of its sources), so a changed
 * generator never reads an old corpus. It is written atomically (`Files.writeAtomic`), never through
 * a symbolic link, and read only when it is a regular file of a plausible length whose every length,
 * index range, order and checksum checks out and whose graph agrees with the papers; otherwise the
 * corpus is built as without a cache, with a Warning saying why. A directory keeps at most 4 files.
 *
 * @since 1.4.0
 */
import type * as Effect from "effect/Effect"
import type * as FileSystem from "effect/FileSystem"
import type { Corpus, CorpusOptions } from "./Corpus.js"
import * as internal from "./internal/corpusCache.js"

/**
 * Where and whether corpus files are kept.
 *
 * @category options
 * @since 1.4.0
 */
export interface CacheOptions {
  /** The directory of corpus files; `undefined`: no cache (the corpus is built). */
  readonly directory: string | undefined
  /**
   * Whether a corpus built for want of a file is written (which builds its search index first, as
   * the file holds it). Default `true`.
   */
  readonly write?: boolean | undefined
}

/**
 * The cache directory of emulators: `S2_EMULATOR_CACHE` (`off`: none), else
 * `$XDG_CACHE_HOME/s2-effect/emulator`, `~/.cache/s2-effect/emulator`, or
 * `%LOCALAPPDATA%\s2-effect\emulator` on Windows.
 *
 * @example
 * ```ts
 * import { CorpusCache } from "@s2-effect/testing"
 *
 * const directory = CorpusCache.defaultDirectory({ S2_EMULATOR_CACHE: "/tmp/corpora" })
 * ```
 * @category directories
 * @since 1.4.0
 */
export const defaultDirectory: (env?: Readonly<Record<string, string | undefined>>) => string | undefined =
  internal.defaultDirectory

/**
 * The name of the corpus file of `seed` and `size` papers in a cache directory.
 *
 * @category directories
 * @since 1.4.0
 */
export const fileName: (seed: number, size: number) => string = internal.fileName

/**
 * The corpus of `options`, read from its file in `directory` when there is a good one, else built
 * (and written, unless `write: false`). Never fails: a file that cannot be read, written or trusted
 * is a Warning and the corpus is built. Corpora above 1,000,000 papers are always built.
 *
 * @example
 * ```ts
 * import { NodeFileSystem } from "@effect/platform-node"
 * import { CorpusCache, Emulator } from "@s2-effect/testing"
 * import { Effect } from "effect"
 *
 * export const emulator = Effect.gen(function*() {
 *   const corpus = yield* CorpusCache.make({ seed: 1, size: 10_000, directory: CorpusCache.defaultDirectory() })
 *   return yield* Emulator.make({ corpus })
 * }).pipe(Effect.provide(NodeFileSystem.layer))
 * ```
 * @category constructors
 * @since 1.4.0
 */
export const make: (options: CorpusOptions & CacheOptions) => Effect.Effect<Corpus, never, FileSystem.FileSystem> =
  internal.make

/**
 * Writes the file of `corpus` into `directory` unless it was read from one (or is above 1,000,000
 * papers, or `directory` is `undefined`), building its search index first if it is not yet: for a
 * corpus made with `write: false`, once its index is built in the background. A failure is a Warning.
 *
 * @category constructors
 * @since 1.4.0
 */
export const save: (
  corpus: Corpus,
  directory: string | undefined
) => Effect.Effect<void, never, FileSystem.FileSystem> = internal.save
