/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "59c05c4ca26e9add656e7385dfd76b22896d3bf4319eb7646bd7af96a82eb227"
