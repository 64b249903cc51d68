/**
 * The flags of the commands that look records up and print them (`paper`, `papers`, `author`,
 * `search`, `recommend`, …): the output flags of one record and of a list, `--ids-file`, and the
 * fields each kind of record shows when `--fields` is omitted.
 *
 * @since 1.3.0
 */
import * as OutputFlags from "../OutputFlags.js"
import * as TextFlag from "../TextFlag.js"

/** Fields shown for a paper when `--fields` is omitted. @since 1.0.0 */
export const paperDefaults = [
  "title",
  "year",
  "venue",
  "publicationDate",
  "authors",
  "citationCount",
  "referenceCount",
  "externalIds",
  "url",
  "abstract"
]
/** Fields shown for papers in lists when `--fields` is omitted. @since 1.0.0 */
export const listDefaults = ["title", "year", "venue", "citationCount", "authors"]
/** Fields shown for citation and reference edges when `--fields` is omitted. @since 1.0.0 */
export const edgeDefaults = ["title", "year", "authors", "isInfluential"]
/** Fields shown for authors when `--fields` is omitted. @since 1.0.0 */
export const authorDefaults = ["name", "affiliations", "paperCount", "citationCount", "hIndex"]

/** The output flags of a lookup of one record. @since 1.0.0 */
export const shown = { fields: OutputFlags.fieldsFlag, format: OutputFlags.formatFlag } as const

/** The output flags of a list. @since 1.0.0 */
export const listed = {
  fields: OutputFlags.fieldsFlag,
  max: OutputFlags.maxFlag,
  format: OutputFlags.formatFlag
} as const

/** `--ids-file`. @since 1.0.0 */
export const idsFile = TextFlag.optional(
  "ids-file",
  "file",
  "Read more ids from this file, one per line (- for standard input)"
)
