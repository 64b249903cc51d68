/** The clone's bundle of the current sources (built when they changed); resolves to its entry, `s2.js`. */
export declare const devBundle: () => Promise<string>
