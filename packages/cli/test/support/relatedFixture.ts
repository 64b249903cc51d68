/**
 * A hand-filled `CitationGraph.Related` for the map's tests: two seeds, 26 related papers in four
 * groups that read alike (the similar pairs: strong within a group, weak across), prior and
 * derivative works. The names, years and counts are of real papers, rounded; the scores, counts and
 * similarities are made up to look like an answer. One prior work's title is hostile markup.
 */
import { Paper } from "@s2-effect/core"
import { CitationGraph } from "@s2-effect/jobs"
import * as Schema from "effect/Schema"

export const hostile = "</script><script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\"> & \u2028"

type Row = readonly [title: string, author: string, year: number, citations: number, group: number]

const seeds: ReadonlyArray<Row> = [
  ["Attention Is All You Need", "Ashish Vaswani", 2017, 150000, 0],
  ["BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", "Jacob Devlin", 2019, 100000, 1]
]
const related: ReadonlyArray<Row> = [
  ["RoBERTa: A Robustly Optimized BERT Pretraining Approach", "Yinhan Liu", 2019, 25000, 1],
  ["Language Models are Unsupervised Multitask Learners", "Alec Radford", 2019, 22000, 2],
  ["Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer", "Colin Raffel", 2020, 18000, 0],
  ["XLNet: Generalized Autoregressive Pretraining for Language Understanding", "Zhilin Yang", 2019, 9000, 1],
  ["Deep contextualized word representations", "Matthew E. Peters", 2018, 14000, 2],
  ["Language Models are Few-Shot Learners", "Tom B. Brown", 2020, 30000, 2],
  ["ALBERT: A Lite BERT for Self-supervised Learning of Language Representations", "Zhenzhong Lan", 2020, 7000, 1],
  ["DistilBERT, a distilled version of BERT", "Victor Sanh", 2019, 6500, 1],
  ["ELECTRA: Pre-training Text Encoders as Discriminators Rather Than Generators", "Kevin Clark", 2020, 4000, 1],
  ["Transformer-XL: Attentive Language Models beyond a Fixed-Length Context", "Zihang Dai", 2019, 3500, 2],
  ["Universal Language Model Fine-tuning for Text Classification", "Jeremy Howard", 2018, 3500, 2],
  ["Sequence to Sequence Learning with Neural Networks", "Ilya Sutskever", 2014, 20000, 0],
  ["Neural Machine Translation by Jointly Learning to Align and Translate", "Dzmitry Bahdanau", 2015, 26000, 0],
  ["Effective Approaches to Attention-based Neural Machine Translation", "Thang Luong", 2015, 8000, 0],
  ["Convolutional Sequence to Sequence Learning", "Jonas Gehring", 2017, 3000, 0],
  ["BART: Denoising Sequence-to-Sequence Pre-training", "Mike Lewis", 2020, 8000, 0],
  ["SpanBERT: Improving Pre-training by Representing and Predicting Spans", "Mandar Joshi", 2020, 1800, 1],
  ["Reformer: The Efficient Transformer", "Nikita Kitaev", 2020, 1900, 3],
  ["Longformer: The Long-Document Transformer", "Iz Beltagy", 2020, 3000, 3],
  ["Generating Long Sequences with Sparse Transformers", "Rewon Child", 2019, 1500, 3],
  ["An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale", "Alexey Dosovitskiy", 2021, 25000, 3],
  ["GLUE: A Multi-Task Benchmark and Analysis Platform", "Alex Wang", 2018, 5000, 1],
  ["SQuAD: 100,000+ Questions for Machine Comprehension of Text", "Pranav Rajpurkar", 2016, 6000, 1],
  ["Efficient Transformers: A Survey", "Yi Tay", 2022, 1100, 3],
  ["Layer Normalization", "Jimmy Lei Ba", 2016, 9000, 0],
  ["Self-Attention with Relative Position Representations", "Peter Shaw", 2018, 2000, 3]
]
const foundations: ReadonlyArray<Row> = [
  ["Long Short-Term Memory", "Sepp Hochreiter", 1997, 80000, 0],
  ["Adam: A Method for Stochastic Optimization", "Diederik P. Kingma", 2015, 150000, 0],
  [hostile, "Nitish Srivastava", 2014, 35000, 0],
  ["Deep Residual Learning for Image Recognition", "Kaiming He", 2016, 180000, 0],
  ["A Neural Probabilistic Language Model", "Yoshua Bengio", 2003, 9000, 0]
]
const derivatives: ReadonlyArray<Row> = [
  ["LLaMA: Open and Efficient Foundation Language Models", "Hugo Touvron", 2023, 9000, 0],
  ["Training language models to follow instructions with human feedback", "Long Ouyang", 2022, 8000, 0],
  ["PaLM: Scaling Language Modeling with Pathways", "Aakanksha Chowdhery", 2022, 4000, 0]
]

/** A 40-character id for the `i`th paper of `kind`. */
const idOf = (kind: number, i: number) => `${kind}`.padStart(20, "0") + `${i}`.padStart(20, "0")

const paper = (kind: number) => ([title, author, year, citationCount]: Row, i: number): Paper =>
  Schema.decodeUnknownSync(Paper)({
    paperId: idOf(kind, i),
    title,
    year,
    citationCount,
    venue: i % 3 === 0 ? "NeurIPS" : "ACL",
    authors: [{ authorId: `${kind}${i}`, name: author }, { authorId: `${kind}${i}b`, name: "Another Author" }]
  })

/** The pairs that read alike: each pair within a group, a few across; strength from their counts. */
const similarOf = (rows: ReadonlyArray<Row>, ids: ReadonlyArray<string>) => {
  const out: Array<CitationGraph.SimilarLink> = []
  rows.forEach((a, i) =>
    rows.forEach((b, j) => {
      if (j <= i || (a[4] !== b[4] && (i + j) % 5 !== 0)) return
      const coCitation = a[4] === b[4] ? 4 + ((i * 7 + j * 3) % 20) : 1 + ((i + j) % 3)
      const coupling = a[4] === b[4] ? 2 + ((i * 5 + j) % 12) : (i * j) % 3
      out.push(
        new CitationGraph.SimilarLink({
          a: ids[i]!,
          b: ids[j]!,
          coCitation,
          coupling,
          strength: Math.min(1, (coCitation + coupling) / 34)
        })
      )
    })
  )
  return out.sort((x, y) => y.strength - x.strength)
}

export const relatedAnswer = (): CitationGraph.Related => {
  const seedPapers = seeds.map(paper(1))
  const papers = related.map(paper(2))
  const all = [...seeds, ...related]
  const ids = [...seedPapers, ...papers].map((p) => p.paperId)
  return new CitationGraph.Related({
    seeds: seedPapers,
    notFound: [],
    papers: papers.map((p, i) =>
      new CitationGraph.RelatedPaper({
        paper: p,
        score: Math.round(1000 * 0.9 / (1 + i * 0.3)) / 1000,
        coCitation: 40 - i,
        coupling: (i * 7) % 15,
        citesSeed: i % 2 === 0,
        citedBySeed: i % 3 === 0
      })
    ),
    links: papers.flatMap((p, i) => [
      new CitationGraph.Edge({ from: p.paperId, to: seedPapers[i % 2]!.paperId }),
      ...(i > 2 ? [new CitationGraph.Edge({ from: p.paperId, to: papers[i % 3]!.paperId })] : [])
    ]),
    citing: 1200,
    cited: 90,
    candidates: 5400,
    truncated: [],
    stopped: false,
    similar: similarOf(all, ids),
    foundations: foundations.map(paper(3)).map((p, i) =>
      new CitationGraph.CountedPaper({ paper: p, count: 24 - 3 * i })
    ),
    derivatives: derivatives.map(paper(4)).map((p, i) =>
      new CitationGraph.CountedPaper({ paper: p, count: 19 - 4 * i })
    )
  })
}
