/**
 * Landmark papers: a few real papers every corpus contains, so that examples written against the
 * live API (a DOI, an arXiv id, a CorpusId, an author id) run unchanged against the emulator. The
 * table holds bibliographic facts only (ids, title, authors, year, venue), written here by hand;
 * where a real id is not listed, the paper or author keeps the id of the slot it takes. Abstracts,
 * references and citations are the emulator's own: landmarks are cited from the generated graph.
 */
import type { AuthorCore, PaperCore } from "./generate.js"
import { TOPICS, type Venue } from "./vocabulary.js"

interface LandmarkAuthor {
  readonly name: string
  /** The real Semantic Scholar author id, where known. */
  readonly authorId?: string
  readonly dblp?: string
}

interface LandmarkPaper {
  readonly paperId?: string
  readonly corpusId?: number
  readonly externalIds: Readonly<Record<string, string>>
  readonly title: string
  readonly abstract: string | null
  readonly year: number
  readonly publicationDate: string | null
  readonly venue: Venue | null
  readonly journal: PaperCore["journal"]
  readonly topic: string
  readonly fieldsOfStudy: ReadonlyArray<string>
  readonly publicationTypes: ReadonlyArray<string>
  readonly authors: ReadonlyArray<LandmarkAuthor>
}

const venue = (name: string, short: string, type: Venue["type"], issn: string | null, host: string): Venue => ({
  name,
  short,
  type,
  issn,
  host
})

const ETZIONI: LandmarkAuthor = { name: "Oren Etzioni", authorId: "1741101" }
const DUFLO: LandmarkAuthor = { name: "E. Duflo", authorId: "2259683", dblp: "Esther Duflo" }

/** In slot order: the first landmarks are the ones kept in the smallest corpora. */
export const LANDMARKS: ReadonlyArray<LandmarkPaper> = [
  {
    paperId: "2d5673caa9e6af3a7b82a43f19ee920992db07ad",
    corpusId: 14636783,
    externalIds: { DOI: "10.1093/mind/lix.236.433", MAG: "2145482038", DBLP: "journals/x/Turing50" },
    title: "Computing Machinery and Intelligence",
    abstract: "Asks whether machines can think, and replaces the question with an imitation game, " +
      "since known as the Turing test, in which an interrogator tries to tell a machine from a person " +
      "by their written answers.",
    year: 1950,
    publicationDate: "1950-10-01",
    venue: venue("Mind", "Mind", "journal", "0026-4423", "academic.oup.com"),
    journal: { name: "Mind", volume: "LIX", pages: "433-460" },
    topic: "learning",
    fieldsOfStudy: ["Computer Science", "Philosophy"],
    publicationTypes: ["JournalArticle"],
    authors: [{ name: "A. Turing", authorId: "2262347", dblp: "Alan M. Turing" }]
  },
  {
    paperId: "204e3073870fae3d05bcbc2f6a8e263d9b72e776",
    corpusId: 13756489,
    externalIds: { ArXiv: "1706.03762", DBLP: "journals/corr/VaswaniSPUJGKP17" },
    title: "Attention Is All You Need",
    abstract: "Introduces the Transformer, a sequence transduction model built on attention alone, " +
      "without recurrence or convolutions, and evaluates it on machine translation.",
    year: 2017,
    publicationDate: "2017-06-12",
    venue: venue("Neural Information Processing Systems", "NeurIPS", "conference", null, "neurips.cc"),
    journal: { name: "Neural Information Processing Systems" },
    topic: "learning",
    fieldsOfStudy: ["Computer Science"],
    publicationTypes: ["JournalArticle", "Conference"],
    authors: [
      { name: "Ashish Vaswani", authorId: "40348417" },
      { name: "Noam M. Shazeer", authorId: "1846258" },
      { name: "Niki Parmar", authorId: "3877127" },
      { name: "Jakob Uszkoreit", authorId: "39328010" },
      { name: "Llion Jones", authorId: "145024664" },
      { name: "Aidan N. Gomez", authorId: "19177000" },
      { name: "Lukasz Kaiser", authorId: "40527594" },
      { name: "Illia Polosukhin", authorId: "3443442" }
    ]
  },
  {
    paperId: "649def34f8be52c8b66281af98ae884c09aef38b",
    externalIds: { DOI: "10.18653/v1/N18-3011" },
    title: "Construction of the Literature Graph in Semantic Scholar",
    abstract: "Describes how Semantic Scholar builds a graph of papers, authors and entities from " +
      "the scientific literature, and the extraction models behind it.",
    year: 2018,
    publicationDate: null,
    venue: venue(
      "North American Chapter of the Association for Computational Linguistics",
      "NAACL",
      "conference",
      null,
      "aclweb.org"
    ),
    journal: null,
    topic: "data",
    fieldsOfStudy: ["Computer Science"],
    publicationTypes: ["JournalArticle", "Conference"],
    authors: [
      { name: "Waleed Ammar" },
      { name: "Dirk Groeneveld" },
      { name: "Chandra Bhagavatula" },
      { name: "Iz Beltagy" },
      { name: "Miles Crawford" },
      { name: "Doug Downey" },
      { name: "Jason Dunkelberger" },
      { name: "Ahmed Elgohary" },
      { name: "Sergey Feldman" },
      { name: "Vu Ha" },
      { name: "Rodney Kinney" },
      { name: "Sebastian Kohlmeier" },
      { name: "Kyle Lo" },
      { name: "Tyler Murray" },
      { name: "Hsu-Han Ooi" },
      { name: "Matthew E. Peters" },
      { name: "Joanna Power" },
      { name: "Sam Skjonsberg" },
      { name: "Lucy Lu Wang" },
      { name: "Christopher Wilhelm" },
      { name: "Zheng Yuan" },
      { name: "Madeleine van Zuylen" },
      ETZIONI
    ]
  },
  {
    paperId: "cb1ebd913c3724c599f6b276b14b5c6253da68f3",
    corpusId: 3142471,
    externalIds: { DOI: "10.2139/ssrn.2250500", MAG: "2148197077" },
    title: "The Miracle of Microfinance? Evidence from a Randomized Evaluation",
    abstract: "A randomized evaluation of the opening of microfinance branches in Hyderabad, India, " +
      "and of what access to microcredit changed for the households of those neighbourhoods.",
    year: 2013,
    publicationDate: "2013-04-10",
    venue: null,
    journal: { name: "ERN: Credit Risk (Topic)" },
    topic: "economics",
    fieldsOfStudy: ["Economics"],
    publicationTypes: ["JournalArticle"],
    authors: [
      DUFLO,
      { name: "A. Banerjee", authorId: "2237651454", dblp: "Abhijit Banerjee 0001" },
      { name: "R. Glennerster", authorId: "4249203" },
      { name: "Cynthia Kinnan", authorId: "31549526" }
    ]
  },
  {
    paperId: "c31c87c591a25c64fbaa82e8ac6a81831b6ac7ce",
    corpusId: 470667,
    externalIds: { DOI: "10.2139/ssrn.288970", MAG: "2096684396" },
    title: "How Much Should We Trust Differences-in-Differences Estimates?",
    abstract: "Shows that differences-in-differences studies that ignore serial correlation badly " +
      "understate their standard errors, and compares ways to correct them.",
    year: 2001,
    publicationDate: "2001-10-01",
    venue: null,
    journal: { name: "Experimental & Empirical Studies eJournal" },
    topic: "economics",
    fieldsOfStudy: ["Economics"],
    publicationTypes: ["JournalArticle"],
    authors: [
      { name: "Marianne Bertrand", authorId: "81141608" },
      DUFLO,
      { name: "S. Mullainathan", authorId: "2062143" }
    ]
  }
]

/** How many landmarks a corpus of `size` papers holds: all of them from 50 papers up. */
export const landmarkCount = (size: number): number => Math.min(LANDMARKS.length, Math.floor(size / 10))

/** The distinct authors of the first `count` landmarks, in order of first appearance. */
export const landmarkAuthors = (count: number): ReadonlyArray<LandmarkAuthor> => [
  ...new Set(LANDMARKS.slice(0, count).flatMap((paper) => paper.authors))
]

/** The author record of landmark author `author` placed at author index `index`. */
export const landmarkAuthorCore = (author: LandmarkAuthor, index: number, slotId: string): AuthorCore => ({
  index,
  authorId: author.authorId ?? slotId,
  name: author.name,
  affiliations: [],
  homepage: null,
  externalIds: author.dblp === undefined ? {} : { DBLP: [author.dblp] }
})

/**
 * The paper record of landmark `k` placed at paper index `index`, whose slot would have had the ids
 * `slot`; `authorIndex` maps a landmark author to its author index.
 */
export const landmarkPaperCore = (
  k: number,
  index: number,
  slot: { readonly paperId: string; readonly corpusId: number },
  authorIndex: (author: LandmarkAuthor) => number
): PaperCore => {
  const paper = LANDMARKS[k]!
  const corpusId = paper.corpusId ?? slot.corpusId
  const paperId = paper.paperId ?? slot.paperId
  const topic = Math.max(0, TOPICS.findIndex((t) => t.name === paper.topic))
  return {
    index,
    paperId,
    corpusId,
    topic,
    title: paper.title,
    abstract: paper.abstract,
    year: paper.year,
    publicationDate: paper.publicationDate,
    venue: paper.venue,
    externalIds: { ...paper.externalIds, CorpusId: corpusId },
    fieldsOfStudy: paper.fieldsOfStudy,
    s2FieldsOfStudy: paper.fieldsOfStudy.map((category) => ({ category, source: "external" })),
    publicationTypes: paper.publicationTypes,
    authors: paper.authors.map(authorIndex),
    openAccess: null,
    tldr: null,
    journal: paper.journal
  }
}
