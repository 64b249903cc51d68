import type { Transform } from "unicode2latex"

/** The characters overridden in unicode2latex's table. */
export declare const charmap: Readonly<Record<string, { readonly text?: string; readonly math?: string }>>
/** The characters of the table, in its order. */
export declare const characters: () => ReadonlyArray<string>
/** unicode2latex's spelling of one character, braced when it ends in a command name. */
export declare const spell: (transform: Transform, c: string) => string
