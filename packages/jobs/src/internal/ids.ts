/**
 * How DOIs and arXiv ids are written around the id itself, one copy each: the reader and writers
 * that strip or recognise them read them from here (the DOI forms are core's, which recognises ids).
 */
import { PaperId } from "@s2-effect/core"

/** A DOI without what stands before it in a link or a citation (core's {@link PaperId.withoutDoiPrefix}). */
export const withoutDoiPrefix = PaperId.withoutDoiPrefix

/** Whether `text` is a DOI as written bare (core's {@link PaperId.isDoi}). */
export const isDoi = PaperId.isDoi

/** An arXiv id without the `arXiv:` before it. */
export const withoutArxivPrefix = (text: string): string => text.replace(/^arxiv:\s*/i, "")

/** Whether `text` is a new-style arXiv id (since 2007: `1706.03762`, with or without a version). */
export const isNewArxivId = (text: string): boolean => /^\d{4}\.\d{4,5}(v\d+)?$/.test(text)
