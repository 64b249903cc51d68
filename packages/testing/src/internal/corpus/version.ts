/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "e47cf0b0a8dd5d1666125c9e5236440249686ad4f0c162a7c125470bd82adada"
