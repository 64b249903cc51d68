/** Parsing of the paper-id forms the Graph API accepts in paths and batch bodies. */
import * as Data from "effect/Data"

export type PaperRef = Data.TaggedEnum<{
  PaperId: { readonly value: string }
  CorpusId: { readonly value: number }
  External: {
    readonly kind: "DOI" | "ArXiv" | "MAG" | "ACL" | "PubMed" | "PubMedCentral"
    readonly value: string
  }
}>

const PaperRef = Data.taggedEnum<PaperRef>()

const HEX40 = /^[0-9a-f]{40}$/i

const fromUrl = (raw: string): PaperRef | undefined => {
  let url: URL
  try {
    url = new URL(raw.startsWith("http") ? raw : `https://${raw}`)
  } catch {
    return undefined
  }
  const host = url.hostname.replace(/^www\./, "")
  const path = decodeURIComponent(url.pathname)
  if (host.endsWith("semanticscholar.org")) {
    const hex = path.split("/").find((segment) => HEX40.test(segment))
    return hex === undefined ? undefined : PaperRef.PaperId({ value: hex.toLowerCase() })
  }
  if (host.endsWith("arxiv.org")) {
    const m = /\/(?:abs|pdf)\/([^/]+?)(?:v\d+)?(?:\.pdf)?$/.exec(path)
    return m?.[1] === undefined ? undefined : PaperRef.External({ kind: "ArXiv", value: m[1] })
  }
  if (host.endsWith("aclweb.org") || host.endsWith("aclanthology.org")) {
    const last = path.split("/").filter((s) => s.length > 0).at(-1)?.replace(/\.pdf$/, "")
    return last === undefined ? undefined : PaperRef.External({ kind: "ACL", value: last })
  }
  if (host.endsWith("acm.org") || host.endsWith("biorxiv.org")) {
    const m = /(10\.\d{4,9}\/[^\s]+?)(?:v\d+)?(?:\.full(?:\.pdf)?)?$/.exec(path)
    return m?.[1] === undefined ? undefined : PaperRef.External({ kind: "DOI", value: m[1] })
  }
  return undefined
}

/** `undefined` when the id is not well-formed (the API answers 404 for those too). */
export const parsePaperRef = (id: string): PaperRef | undefined => {
  if (HEX40.test(id)) return PaperRef.PaperId({ value: id.toLowerCase() })
  const colon = id.indexOf(":")
  if (colon > 0) {
    const prefix = id.slice(0, colon).toUpperCase()
    const rest = id.slice(colon + 1)
    if (rest.length === 0) return undefined
    switch (prefix) {
      case "CORPUSID":
        return /^\d+$/.test(rest) ? PaperRef.CorpusId({ value: Number(rest) }) : undefined
      case "DOI":
        return PaperRef.External({ kind: "DOI", value: rest })
      case "ARXIV":
        return PaperRef.External({ kind: "ArXiv", value: rest.replace(/v\d+$/, "") })
      case "MAG":
        return /^\d+$/.test(rest) ? PaperRef.External({ kind: "MAG", value: rest }) : undefined
      case "ACL":
        return PaperRef.External({ kind: "ACL", value: rest })
      case "PMID":
        return /^\d+$/.test(rest) ? PaperRef.External({ kind: "PubMed", value: rest }) : undefined
      case "PMCID":
        return PaperRef.External({ kind: "PubMedCentral", value: rest.replace(/^PMC/i, "") })
      case "URL":
        return fromUrl(rest)
    }
  }
  if (/^10\.\d{4,9}\/\S+$/.test(id)) return PaperRef.External({ kind: "DOI", value: id })
  return undefined
}

/** Author ids are positive integers without leading zeros. */
export const isAuthorId = (id: string): boolean => /^[1-9]\d*$/.test(id)

export const externalKey = (kind: string, value: string): string => `${kind}:${value.toLowerCase()}`
