/**
 * The version of the corpus generator: a SHA-256 of the sources that decide what a corpus holds
 * (src/internal/corpus/*.ts but the version file itself, src/internal/prng.ts) and of the stemmer's
 * version, which decides the search index's terms. A corpus file made by another version is never
 * read (see src/CorpusCache.ts). `node packages/testing/scripts/corpus-version.mjs --write` writes it
 * into src/internal/corpus/version.ts; test/CorpusCache.test.ts checks that it is up to date.
 */
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"

const root = Path.resolve(import.meta.dirname, "..")
const versionFile = Path.join(root, "src/internal/corpus/version.ts")

export const corpusVersion = () => {
  const hash = createHash("sha256")
  const dir = Path.join(root, "src/internal/corpus")
  const files = Fs.readdirSync(dir).filter((name) => name.endsWith(".ts") && name !== "version.ts").sort()
  for (const name of files) hash.update(`${name}\n`).update(Fs.readFileSync(Path.join(dir, name)))
  hash.update("prng.ts\n").update(Fs.readFileSync(Path.join(root, "src/internal/prng.ts")))
  const stemmer = JSON.parse(Fs.readFileSync(Path.join(root, "node_modules/stemmer/package.json"), "utf8"))
  hash.update(`stemmer ${stemmer.version}\n`)
  return hash.digest("hex")
}

export const versionSource = (version) =>
  "/**\n" +
  " * The version of the corpus generator, which keys and checks corpus files: written by\n" +
  " * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.\n" +
  " */\n" +
  `export const CORPUS_VERSION = "${version}"\n`

if (process.argv.includes("--write")) {
  Fs.writeFileSync(versionFile, versionSource(corpusVersion()))
  console.log(corpusVersion())
}
