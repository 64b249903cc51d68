/** The clone's bundle of the current sources (built when they changed); resolves to its entry, `s2.js`. */
export declare const devBundle: () => Promise<string>
/** That bundle copied into `dir` (code, source map, code-cache entry); resolves to the copy's `s2.js`. */
export declare const copyDevBundle: (dir: string) => Promise<string>
