#!/usr/bin/env bash
# Node from the npm registry's node-linux-<arch> package (its binary and C++ headers), so that CI
# gets the Node it tests on, and better-sqlite3 compiles against it, without any other download.
# Usage: dir="$(bash scripts/registry-node.sh 24.22.3)"; prints the folder holding bin/node and
# include/node. Kept under NODE_CACHE_DIR (default: the project's ignored .cache/node).
set -euo pipefail

version="${1:?usage: registry-node.sh <exact Node version, e.g. 24.22.3>}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *)
    echo "registry-node.sh: no node-linux package for $(uname -m)" >&2
    exit 1
    ;;
esac
cache="${NODE_CACHE_DIR:-$(cd "$(dirname "$0")/.." && pwd)/.cache/node}"
dir="$cache/$version-$arch"

if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.download.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  # npm pack only downloads the tarball (no install scripts run).
  (cd "$work" && npm pack --silent "node-linux-$arch@$version" >/dev/null)
  tar xzf "$work"/node-linux-"$arch"-*.tgz -C "$work"
  rm -rf "$dir"
  mv "$work/package" "$dir"
fi
if [ ! -f "$dir/include/node/node.h" ]; then
  echo "registry-node.sh: $dir has no include/node headers (better-sqlite3 compiles against them)" >&2
  exit 1
fi
echo "$dir"
