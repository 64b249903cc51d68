/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "f7ca03ee9278c0c1ec481ae12e48bad9de02e8d60c86a30d14f67e9106ac5598"
