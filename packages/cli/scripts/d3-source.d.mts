/** d3-force and the d3 modules it needs, as one script defining `globalThis.d3` (their UMD builds). */
export declare const d3ForceSource: () => string
