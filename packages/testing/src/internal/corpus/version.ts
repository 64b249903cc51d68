/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "7be9aff0cd55d4d80d54f53f5d378938181bc8120eea3be17c83b976a49611f1"
