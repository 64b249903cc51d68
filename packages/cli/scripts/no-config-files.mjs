// Stands in for yaml, toml and ini in the bundled `s2` (scripts/bundle.mjs): @effect/cli imports
// them for config-file options, which `s2` has none of; they were a sixth of what `s2 --help` loads.
export const parse = () => {
  throw new Error("s2 reads no configuration files")
}
