/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "19bacb44f34a16c4b62f24cac23151d15ceb72daae15f59c7fb4a1fa47ef136c"
