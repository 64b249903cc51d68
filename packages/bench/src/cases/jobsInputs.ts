/**
 * What the issue 29 rows ask the emulator: a reference list of 1,000 inputs in the forms people
 * paste, and a seed with long citation and reference lists. Built from one bulk page fetched with
 * a key of its own (the emulator paces each key apart), before any timing starts.
 */

export interface Corpus {
  readonly references: ReadonlyArray<string>
  readonly seed: string
}

interface Record {
  readonly paperId: string
  readonly corpusId: number
  readonly title: string
  readonly citationCount: number
  readonly referenceCount: number
  readonly externalIds: { readonly DOI?: string; readonly ArXiv?: string }
}

const SETUP_KEY = "bench-setup"

/** The id forms of a reference list, in turn: bare, prefixed and URL spellings. */
const idForms: ReadonlyArray<(r: Record) => string | undefined> = [
  (r) => r.externalIds.DOI,
  (r) => r.externalIds.DOI === undefined ? undefined : `doi:${r.externalIds.DOI}`,
  (r) => r.externalIds.DOI === undefined ? undefined : `https://doi.org/${r.externalIds.DOI}`,
  (r) => r.externalIds.ArXiv === undefined ? undefined : `arXiv:${r.externalIds.ArXiv}`,
  (r) => r.externalIds.ArXiv === undefined ? undefined : `https://arxiv.org/abs/${r.externalIds.ArXiv}`,
  (r) => `CorpusId:${r.corpusId}`,
  (r) => r.paperId,
  (r) => `https://www.semanticscholar.org/paper/${r.paperId}`
]

/**
 * 1,000 inputs: about 70% ids (the forms above, and 30 DOIs the corpus does not hold, which
 * `--open-world` resolves), about 30% titles (a few lower-cased, ten that match nothing), and 50
 * repeats of earlier inputs, shuffled by a fixed rule so every run asks the same.
 */
const referenceList = (records: ReadonlyArray<Record>): Array<string> => {
  const ids: Array<string> = []
  for (let i = 0; ids.length < 620 && i < records.length * idForms.length; i++) {
    const record = records[i % records.length]!
    const id = idForms[(i + Math.floor(i / records.length)) % idForms.length]!(record)
    if (id !== undefined) ids.push(id)
  }
  for (let i = 0; i < 30; i++) ids.push(`10.9999/bench.${i}`)
  const titles = records.slice(400, 690).map((r, i) => i % 7 === 0 ? r.title.toLowerCase() : r.title)
  for (let i = 0; i < 10; i++) titles.push(`Zyxqv unmatched reference number ${i}`)
  const distinct = [...ids, ...titles]
  // A fixed permutation (a multiplicative step coprime with the length), then 50 repeats.
  const mixed = distinct.map((_, i) => distinct[(i * 617) % distinct.length]!)
  return [...mixed, ...Array.from({ length: 1000 - mixed.length }, (_, i) => mixed[(i * 37) % mixed.length]!)]
}

export const corpus = async (apiUrl: string): Promise<Corpus> => {
  const fields = "paperId,corpusId,title,citationCount,referenceCount,externalIds"
  const response = await fetch(`${apiUrl}/graph/v1/paper/search/bulk?query=&fields=${fields}`, {
    headers: { "x-api-key": SETUP_KEY }
  })
  const page: { data?: Array<Record> } = await response.json()
  const records = page.data ?? []
  if (records.length < 700) throw new Error(`setup: the emulator listed ${records.length} papers, not 1,000`)
  const seed = records.filter((r) => r.citationCount >= 20 && r.referenceCount >= 20)
    .sort((a, b) => b.citationCount - a.citationCount)[0]
  if (seed === undefined) throw new Error("setup: no paper with 20 citations and 20 references")
  return { references: referenceList(records), seed: seed.paperId }
}
