/** Builds the published `s2` bundle into `outdir` (default dist/bin); returns the path of its entry. */
export declare const bundleCli: (outdir?: string) => Promise<string>
/** The same, synchronously. */
export declare const bundleCliSync: (outdir?: string) => string
