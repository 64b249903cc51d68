/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "3bc87eace925e42fad3a4c31bc924e22f79446221c325a922eb9765a021ceff6"
