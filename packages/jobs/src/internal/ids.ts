/**
 * How DOIs and arXiv ids are written around the id itself, one copy each: the resolver, reader and
 * writers that strip or recognise them read them from here.
 */

/** What stands before a DOI in a link or a citation: a resolver's address (`https://doi.org/`, `http://dx.doi.org/`) or `doi:`. */
export const doiPrefix = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i

/** A DOI without what stands before it ({@link doiPrefix}). */
export const withoutDoiPrefix = (text: string): string => text.replace(doiPrefix, "")

/** Whether `text` is a DOI as written bare: `10.`, a registrant of 4 to 9 digits, `/`, a suffix without spaces. */
export const isDoi = (text: string): boolean => /^10\.\d{4,9}\/\S+$/.test(text)

/** An arXiv id without the `arXiv:` before it. */
export const withoutArxivPrefix = (text: string): string => text.replace(/^arxiv:\s*/i, "")

/** Whether `text` is a new-style arXiv id (since 2007: `1706.03762`, with or without a version). */
export const isNewArxivId = (text: string): boolean => /^\d{4}\.\d{4,5}(v\d+)?$/.test(text)
