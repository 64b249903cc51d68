import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { sameVenue } from "../src/internal/verifyCompare.js"

/** Names of one venue: abbreviations, parts named with or without filler, initials, subtitles, parentheses. */
const same: ReadonlyArray<readonly [string, string]> = [
  ["J. Mach. Learn. Res.", "Journal of Machine Learning Research"],
  ["Phys. Rev. Lett.", "Physical Review Letters"],
  ["IEEE Trans. Pattern Anal. Mach. Intell.", "IEEE Transactions on Pattern Analysis and Machine Intelligence"],
  ["Int. J. Comput. Vis.", "International Journal of Computer Vision"],
  ["Proc. AAAI Conf. Artif. Intell.", "AAAI Conference on Artificial Intelligence"],
  ["Advances in Neural Information Processing Systems", "Neural Information Processing Systems"],
  ["NIPS", "Advances in Neural Information Processing Systems"],
  ["Proceedings of the 34th International Conference on Machine Learning", "ICML"],
  ["ICML", "International Conference on Machine Learning"],
  ["CVPR", "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"],
  [
    "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition",
    "Computer Vision and Pattern Recognition"
  ],
  ["Proc. of ACL", "Annual Meeting of the Association for Computational Linguistics"],
  ["EMNLP", "Conference on Empirical Methods in Natural Language Processing"],
  ["Proc. of NAACL-HLT", "NAACL"],
  ["EMNLP-IJCNLP", "Conference on Empirical Methods in Natural Language Processing"],
  ["Symposium on Dependable, Autonomic and Secure Computing", "Dependable Autonomic and Secure Computing"],
  ["Erkenntnis", "Erkenntnis: An International Journal of Scientific Philosophy"],
  ["Soft Computing", "Soft Computing - A Fusion of Foundations, Methodologies and Applications"],
  ["J Symb Log", "Journal of Symbolic Logic (JSL)"],
  ["Neuropathol (Kyoto 1993", "Neuropathology (Kyoto. 1993)"],
  ["Rev Mal Respir", "Revue des maladies respiratoires"],
  ["Berl J Soziol", "Berliner Journal für Soziologie"],
  ["Mind", "Mind"],
  ["Proceedings", "Nature"]
]

/** Other venues: a part of a name, a longer name, the initials of only its last words. */
const different: ReadonlyArray<readonly [string, string]> = [
  ["Nature", "Nature Communications"],
  ["Science", "Science Advances"],
  ["Physical Review", "Physical Review Letters"],
  ["Phys. Rev.", "Physical Review Letters"],
  ["Physical Review E", "Physical Review B"],
  ["Cell", "Cell Reports"],
  ["NLP", "Conference on Empirical Methods in Natural Language Processing"],
  ["NLP", "EMNLP"],
  ["ACL", "North American Chapter of the Association for Computational Linguistics"],
  ["Machine Learning", "Journal of Machine Learning Research"],
  ["Nature", "Mind"],
  ["Neural Computation", "Neural Information Processing Systems"],
  ["ICLR", "International Conference on Machine Learning"],
  ["Journal of Computational Physics", "Computational Physics"],
  ["CVPR", "Computer Vision and Pattern Recognition Workshops"]
]

describe("sameVenue", () => {
  it.each(same)("%s is %s (either way round)", (a, b) => {
    expect(sameVenue(a, b)).toBe(true)
    expect(sameVenue(b, a)).toBe(true)
  })

  it.each(different)("%s is not %s (either way round)", (a, b) => {
    expect(sameVenue(a, b)).toBe(false)
    expect(sameVenue(b, a)).toBe(false)
  })

  it("property: a venue always agrees with itself, in any case and punctuation", () => {
    fc.assert(fc.property(fc.array(fc.stringMatching(/^[A-Za-z]{1,10}$/), { minLength: 1, maxLength: 8 }), (ws) => {
      const name = ws.join(" ")
      expect(sameVenue(name, name.toUpperCase().replace(/ /g, ", "))).toBe(true)
    }))
  })

  it("property: a name of two or more words and the same name with another word after it are two venues", () => {
    const word = fc.stringMatching(/^[a-z]{3,8}$/).map((w) => `Q${w}`)
    fc.assert(fc.property(fc.uniqueArray(word, { minLength: 3, maxLength: 6 }), (ws) => {
      const name = ws.slice(0, -1).join(" ")
      fc.pre(!ws.slice(0, -1).some((w) => w.startsWith(ws.at(-1)!) || ws.at(-1)!.startsWith(w)))
      expect(sameVenue(name, `${name} ${ws.at(-1)}`)).toBe(false)
    }))
  })
})
