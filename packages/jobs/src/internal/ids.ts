/**
 * How DOIs and arXiv ids are written around the id itself, one copy each: the reader and writers
 * that strip or recognise them read them from here (the DOI forms are core's, which recognises ids).
 */
import { PaperId } from "@s2-effect/core"

/** A DOI without what stands before it in a link or a citation (core's {@link PaperId.withoutDoiPrefix}). */
export const withoutDoiPrefix = PaperId.withoutDoiPrefix

/** Whether `text` is a DOI as written bare (core's {@link PaperId.isDoi}). */
export const isDoi = PaperId.isDoi
