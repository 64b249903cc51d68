/** The seeds of the related-papers rows: the landmarks with DOIs (Turing 1950, the Literature Graph 2018, microfinance 2013). */
export const seeds = ["DOI:10.1093/mind/lix.236.433", "DOI:10.18653/v1/N18-3011", "DOI:10.2139/ssrn.2250500"]
