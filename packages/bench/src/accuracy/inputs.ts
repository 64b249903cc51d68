/**
 * A case's text as the verifier's inputs, read the way a user's file is: .bib through
 * `Verify.fromBibtex`; every other format through `Verify.read` once the jobs package has it
 * (found at run time, so the same bench measures the reader when it is merged), else line by line
 * as `s2 verify` reads a file that is not .bib (each non-blank line a reference).
 */
import { type ReferenceInput, Verify } from "@s2-effect/jobs"
import type { Case } from "./generate.js"

/** `Verify.read` when the jobs package exports it. */
const reader = (): ((text: string) => unknown) | undefined => {
  const read = (Verify as unknown as { readonly read?: unknown }).read
  return typeof read === "function" ? (read as (text: string) => unknown) : undefined
}

/** Which reader reads the formats other than .bib. */
export const readerName = (): string => (reader() === undefined ? "lines" : "Verify.read")

const isInputs = (x: unknown): x is { readonly inputs: ReadonlyArray<ReferenceInput.ReferenceInput> } =>
  typeof x === "object" && x !== null && Array.isArray((x as { inputs?: unknown }).inputs)

/**
 * What `Verify.read` answered, as inputs: its `inputs`, also inside a success wrapper (`Result`,
 * `Either`, `Exit`); a refusal (thrown or returned) is no input, so the reference counts as flagged.
 */
const readInputs = (read: (text: string) => unknown, text: string): ReadonlyArray<ReferenceInput.ReferenceInput> => {
  let out: unknown
  try {
    out = read(text)
  } catch {
    return []
  }
  if (isInputs(out)) return out.inputs
  if (typeof out === "object" && out !== null) {
    for (const inner of ["success", "right", "value"]) {
      const value = (out as Record<string, unknown>)[inner]
      if (isInputs(value)) return value.inputs
    }
  }
  return []
}

const lines = (text: string): ReadonlyArray<ReferenceInput.ReferenceInput> =>
  text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0)

/** Whether the verifier reads the case's format as one reference (not cut into lines). */
export const isRead = (c: Case): boolean => c.format === "bibtex" || c.format === "line" || reader() !== undefined

/** The inputs of one case, each keyed `<case key>#<n>` so that its verification finds its case. */
export const inputsOf = (c: Case): ReadonlyArray<ReferenceInput.ReferenceInput> => {
  const read = reader()
  const raw = c.format === "bibtex"
    ? Verify.fromBibtex(c.text)
    : read === undefined
    ? lines(c.text)
    : readInputs(read, c.text)
  return raw.map((input, i): ReferenceInput.ReferenceInput => {
    const key = `${c.key}#${i}`
    return typeof input === "string" ? { key, text: input } : { ...input, key }
  })
}

/** The case key of an input's key. */
export const caseKey = (inputKey: string): string => inputKey.slice(0, inputKey.lastIndexOf("#"))
