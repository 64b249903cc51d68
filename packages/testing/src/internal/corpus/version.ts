/**
 * The version of the corpus generator, which keys and checks corpus files: written by
 * scripts/corpus-version.mjs from the generator's sources; test/CorpusCache.test.ts checks it.
 */
export const CORPUS_VERSION = "8ceeeaff69174a33ad7b837864114bae9d27285127eae149d7824f0f0d73ac7d"
