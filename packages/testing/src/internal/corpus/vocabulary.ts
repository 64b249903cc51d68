/**
 * The word lists the generator draws from. Hand-written, generic scholarly vocabulary; topics are
 * coherent enough that searches return sensible, clustered results.
 */
import type { Venue } from "../../Corpus.js"

export type { Venue }

export const PUBLICATION_TYPES = [
  "Review",
  "JournalArticle",
  "CaseReport",
  "ClinicalTrial",
  "Conference",
  "Dataset",
  "Editorial",
  "LettersAndComments",
  "MetaAnalysis",
  "News",
  "Study",
  "Book",
  "BookSection"
] as const

export const FIELDS_OF_STUDY = [
  "Computer Science",
  "Medicine",
  "Chemistry",
  "Biology",
  "Materials Science",
  "Physics",
  "Geology",
  "Psychology",
  "Art",
  "History",
  "Geography",
  "Sociology",
  "Business",
  "Political Science",
  "Economics",
  "Philosophy",
  "Mathematics",
  "Engineering",
  "Environmental Science",
  "Agricultural and Food Sciences",
  "Education",
  "Law",
  "Linguistics"
] as const

export interface Topic {
  readonly name: string
  readonly weight: number
  readonly fields: ReadonlyArray<string>
  readonly nouns: ReadonlyArray<string>
  readonly adjectives: ReadonlyArray<string>
  readonly methods: ReadonlyArray<string>
  readonly venues: ReadonlyArray<Venue>
  readonly arxiv: boolean
  readonly pubmed: boolean
}

const v = (name: string, short: string, type: Venue["type"], issn: string | null, host: string): Venue => ({
  name,
  short,
  type,
  issn,
  host
})

export const TOPICS: ReadonlyArray<Topic> = [
  {
    name: "theory",
    weight: 10,
    fields: ["Computer Science", "Mathematics"],
    nouns: [
      "turing machines",
      "edit distance",
      "graph algorithms",
      "complexity",
      "approximation",
      "computability",
      "shortest paths",
      "lower bounds",
      "sorting networks",
      "string matching",
      "turing test",
      "automata",
      "decidability",
      "randomized algorithms",
      "data structures",
      "matrix multiplication",
      "sketches",
      "streaming algorithms",
      "hash functions",
      "combinatorial optimization"
    ],
    adjectives: [
      "sublinear",
      "near optimal",
      "optimal",
      "deterministic",
      "randomized",
      "parallel",
      "dynamic",
      "quantum",
      "universal",
      "efficient"
    ],
    methods: [
      "reduction",
      "dynamic programming",
      "linear programming",
      "amortized analysis",
      "turing reduction",
      "probabilistic method",
      "dimension reduction"
    ],
    venues: [
      v("Symposium on the Theory of Computing", "STOC", "conference", null, "acm.org"),
      v("Foundations of Computer Science", "FOCS", "conference", null, "ieee.org"),
      v("Journal of the ACM", "JACM", "journal", "0004-5411", "acm.org"),
      v("SIAM Journal on Computing", "SICOMP", "journal", "0097-5397", "siam.org"),
      v("arXiv.org", "ArXiv", "journal", "2331-8422", "arxiv.org")
    ],
    arxiv: true,
    pubmed: false
  },
  {
    name: "systems",
    weight: 8,
    fields: ["Computer Science", "Engineering"],
    nouns: [
      "kubernetes clusters",
      "container orchestration",
      "distributed storage",
      "cloud computing",
      "microservices",
      "serverless functions",
      "consensus protocols",
      "scheduling",
      "edge computing",
      "virtual machines",
      "network function virtualization",
      "fault tolerance",
      "load balancing",
      "kubernetes",
      "data centers"
    ],
    adjectives: [
      "scalable",
      "elastic",
      "secure",
      "fault tolerant",
      "energy efficient",
      "decentralized",
      "low latency",
      "adaptive"
    ],
    methods: [
      "autoscaling",
      "reinforcement learning",
      "formal verification",
      "simulation",
      "benchmarking",
      "empirical study"
    ],
    venues: [
      v("USENIX Symposium on Operating Systems Design and Implementation", "OSDI", "conference", null, "usenix.org"),
      v("IEEE Transactions on Cloud Computing", "IEEE Trans Cloud Comput", "journal", "2168-7161", "ieee.org"),
      v("ACM Symposium on Cloud Computing", "SoCC", "conference", null, "acm.org"),
      v("arXiv.org", "ArXiv", "journal", "2331-8422", "arxiv.org")
    ],
    arxiv: true,
    pubmed: false
  },
  {
    name: "learning",
    weight: 14,
    fields: ["Computer Science"],
    nouns: [
      "neural networks",
      "language models",
      "transformers",
      "representation learning",
      "image classification",
      "machine translation",
      "turing test",
      "reinforcement learning",
      "graph neural networks",
      "embeddings",
      "question answering",
      "speech recognition",
      "generative models",
      "attention",
      "knowledge distillation"
    ],
    adjectives: [
      "deep",
      "large",
      "self supervised",
      "robust",
      "efficient",
      "multilingual",
      "contrastive",
      "sparse",
      "interpretable"
    ],
    methods: [
      "pretraining",
      "fine tuning",
      "gradient descent",
      "variational inference",
      "data augmentation",
      "mining association rules"
    ],
    venues: [
      v("Neural Information Processing Systems", "NeurIPS", "conference", null, "neurips.cc"),
      v("International Conference on Machine Learning", "ICML", "conference", null, "icml.cc"),
      v("Annual Meeting of the Association for Computational Linguistics", "ACL", "conference", null, "aclweb.org"),
      v("arXiv.org", "ArXiv", "journal", "2331-8422", "arxiv.org")
    ],
    arxiv: true,
    pubmed: false
  },
  {
    name: "data",
    weight: 6,
    fields: ["Computer Science", "Business"],
    nouns: [
      "association rules",
      "frequent itemsets",
      "large databases",
      "query optimization",
      "data mining",
      "information retrieval",
      "recommender systems",
      "sets of items",
      "knowledge graphs",
      "data cleaning"
    ],
    adjectives: ["fast", "incremental", "scalable", "approximate", "privacy preserving", "interactive"],
    methods: ["mining association rules between sets of items", "indexing", "sampling", "clustering", "ranking"],
    venues: [
      v("ACM SIGMOD Conference", "SIGMOD", "conference", null, "acm.org"),
      v("Very Large Data Bases Conference", "VLDB", "conference", null, "vldb.org"),
      v("Knowledge Discovery and Data Mining", "KDD", "conference", null, "acm.org")
    ],
    arxiv: true,
    pubmed: false
  },
  {
    name: "medicine",
    weight: 14,
    fields: ["Medicine", "Biology"],
    nouns: [
      "randomized trials",
      "cancer",
      "diabetes",
      "cardiovascular disease",
      "vaccination",
      "sepsis",
      "public health",
      "depression",
      "antibiotic resistance",
      "obesity",
      "clinical outcomes",
      "patients",
      "immunotherapy"
    ],
    adjectives: ["chronic", "acute", "pediatric", "elderly", "multicenter", "prospective", "retrospective", "global"],
    methods: [
      "cohort study",
      "meta analysis",
      "systematic review",
      "case report",
      "machine learning",
      "survival analysis"
    ],
    venues: [
      v("The Lancet", "Lancet", "journal", "0140-6736", "thelancet.com"),
      v("New England Journal of Medicine", "N Engl J Med", "journal", "0028-4793", "nejm.org"),
      v("BMJ Open", "BMJ Open", "journal", "2044-6055", "bmj.com"),
      v("PLoS ONE", "PLoS ONE", "journal", "1932-6203", "plos.org")
    ],
    arxiv: false,
    pubmed: true
  },
  {
    name: "biology",
    weight: 8,
    fields: ["Biology", "Chemistry"],
    nouns: [
      "gene expression",
      "protein folding",
      "virus replication",
      "cell signaling",
      "genomes",
      "microbiome",
      "proteogenomics",
      "enzymes",
      "evolution",
      "neurons",
      "stem cells"
    ],
    adjectives: ["single cell", "structural", "comparative", "functional", "molecular", "evolutionary"],
    methods: ["sequencing", "crystallography", "mass spectrometry", "phylogenetic analysis", "knockout experiments"],
    venues: [
      v("Nature", "Nature", "journal", "0028-0836", "nature.com"),
      v("Cell", "Cell", "journal", "0092-8674", "cell.com"),
      v("bioRxiv", "bioRxiv", "journal", null, "biorxiv.org")
    ],
    arxiv: false,
    pubmed: true
  },
  {
    name: "physics",
    weight: 7,
    fields: ["Physics", "Materials Science"],
    nouns: [
      "quantum computing",
      "superconductivity",
      "dark matter",
      "gravitational waves",
      "topological insulators",
      "quantum entanglement",
      "plasma",
      "thin films",
      "universal quantum computer",
      "black holes"
    ],
    adjectives: ["quantum", "nonlinear", "relativistic", "thermal", "magnetic", "optical"],
    methods: ["monte carlo simulation", "density functional theory", "spectroscopy", "perturbation theory"],
    venues: [
      v("Physical Review Letters", "Phys Rev Lett", "journal", "0031-9007", "aps.org"),
      v("Nature Physics", "Nat Phys", "journal", "1745-2473", "nature.com"),
      v("arXiv.org", "ArXiv", "journal", "2331-8422", "arxiv.org")
    ],
    arxiv: true,
    pubmed: false
  },
  {
    name: "economics",
    weight: 7,
    fields: ["Economics", "Business", "Political Science"],
    nouns: [
      "microcredit",
      "labor markets",
      "inflation",
      "poverty",
      "entrepreneurship",
      "trade",
      "health insurance",
      "education outcomes",
      "monetary policy",
      "inequality",
      "field experiments"
    ],
    adjectives: ["rural", "developing", "regional", "long run", "causal", "behavioral"],
    methods: [
      "differences in differences",
      "randomized evaluation",
      "instrumental variables",
      "structural estimation",
      "regression discontinuity"
    ],
    venues: [
      v("American Economic Review", "Am Econ Rev", "journal", "0002-8282", "aeaweb.org"),
      v("Quarterly Journal of Economics", "Q J Econ", "journal", "0033-5533", "oup.com"),
      v("SSRN Electronic Journal", "SSRN", "journal", "1556-5068", "ssrn.com")
    ],
    arxiv: false,
    pubmed: false
  },
  {
    name: "humanities",
    weight: 5,
    fields: ["Philosophy", "History", "Psychology", "Linguistics", "Education", "Art", "Sociology", "Law"],
    nouns: [
      "machine intelligence",
      "consciousness",
      "language acquisition",
      "moral philosophy",
      "historiography",
      "turing",
      "learning environments",
      "public memory",
      "legal reasoning",
      "social networks"
    ],
    adjectives: ["critical", "historical", "cognitive", "cross cultural", "ethical", "digital"],
    methods: ["close reading", "interviews", "ethnography", "survey study", "thought experiments"],
    venues: [
      v("Mind", "Mind", "journal", "0026-4423", "oup.com"),
      v("Philosophy of Science", "Philos Sci", "journal", "0031-8248", "cambridge.org"),
      v("Cognitive Science", "Cogn Sci", "journal", "0364-0213", "wiley.com")
    ],
    arxiv: false,
    pubmed: false
  }
]

export const TITLE_PATTERNS: ReadonlyArray<string> = [
  "{Adj} {noun} via {method}",
  "On the {noun} of {adj} {noun2}",
  "{Method} for {adj} {noun}",
  "A survey of {noun}",
  "Towards {adj} {noun}: {method} and {noun2}",
  "{Noun}: an empirical study of {noun2}",
  "{Adj} {method} for {noun} and {noun2}",
  "Rethinking {noun} with {method}",
  "{Noun} in the era of {noun2}",
  "Learning {noun} from {adj} {noun2}"
]

export const SENTENCE_PATTERNS: ReadonlyArray<string> = [
  "We study {noun} in the setting of {adj} {noun2}.",
  "Existing approaches to {noun} rely on {method}, which does not scale to {adj} {noun2}.",
  "We propose a {adj} framework that combines {method} with {noun}.",
  "Our analysis shows that {noun2} can be handled with {method} in near linear time.",
  "Experiments on {noun} demonstrate improvements over {adj} baselines.",
  "We further discuss implications for {noun2} and open problems in {noun}.",
  "The results suggest that {method} is a {adj} tool for {noun}.",
  "We prove matching lower bounds for {adj} {noun2}."
]

export const FIRST_NAMES: ReadonlyArray<string> = [
  "Alan",
  "Ada",
  "Edsger",
  "Barbara",
  "Donald",
  "Grace",
  "John",
  "Leslie",
  "Shafi",
  "Tim",
  "Frances",
  "Robert",
  "Esther",
  "Abhijit",
  "Maria",
  "Wei",
  "Yuki",
  "Priya",
  "Ahmed",
  "Olga",
  "Carlos",
  "Fatima",
  "Lars",
  "Chen",
  "Sofia",
  "David",
  "Amara",
  "Hiroshi",
  "Elena",
  "Kwame",
  "Ingrid",
  "Rahul",
  "Mei",
  "Pablo",
  "Nadia",
  "Tomas"
]

export const LAST_NAMES: ReadonlyArray<string> = [
  "Turing",
  "Lovelace",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Hopper",
  "McCarthy",
  "Lamport",
  "Goldwasser",
  "Berners",
  "Allen",
  "Tarjan",
  "Duflo",
  "Banerjee",
  "Garcia",
  "Zhang",
  "Tanaka",
  "Sharma",
  "Hassan",
  "Ivanova",
  "Silva",
  "Okafor",
  "Nielsen",
  "Wang",
  "Rossi",
  "Cohen",
  "Mensah",
  "Sato",
  "Petrova",
  "Andersen",
  "Gupta",
  "Li",
  "Fernandez",
  "Kowalski",
  "Nguyen",
  "Parnas",
  "Hoare",
  "Milner",
  "Karp",
  "Rabin"
]

export const AFFILIATIONS: ReadonlyArray<string> = [
  "University of Cambridge",
  "MIT",
  "Stanford University",
  "ETH Zurich",
  "University of Tokyo",
  "Tsinghua University",
  "Max Planck Institute",
  "University of Toronto",
  "Allen Institute for AI",
  "Indian Institute of Science",
  "University of Cape Town",
  "Sorbonne University",
  "University of Sao Paulo",
  "Karolinska Institutet"
]

export const DATASET_NAMES: ReadonlyArray<string> = [
  "abstracts",
  "authors",
  "citations",
  "embeddings-specter_v1",
  "embeddings-specter_v2",
  "paper-ids",
  "papers",
  "publication-venues",
  "s2orc",
  "s2orc_v2",
  "tldrs"
]
