#!/usr/bin/env bash
# Prints a folder holding Node VERSION (bin/node and the include/node headers that node-gyp
# builds native modules against), fetched once from the npm registry (the node-<os>-<arch>
# package; the registry is the only network CI may have) into DIR. Use it with
#   PATH="$folder/bin:$PATH" npm_config_nodedir="$folder"
# bin/ holds only `node`, so that changes the Node every npm runs on, not the npm itself.
# usage: .ci/node-bin.sh VERSION DIR
set -euo pipefail
version=$1
dir=$2/node-$version
if [ ! -x "$dir/bin/node" ] || [ ! -f "$dir/include/node/node_api.h" ]; then
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "node-bin: no registry package for $(uname -s)" >&2; exit 1 ;; esac
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) echo "node-bin: no registry package for $(uname -m)" >&2; exit 1 ;; esac
  rm -rf "$dir" "$dir.tmp" && mkdir -p "$dir.tmp" "$dir/bin"
  (cd "$dir.tmp" && npm pack --silent "node-$os-$arch@$version" >/dev/null && tar xzf node-*.tgz)
  mv "$dir.tmp/package/include" "$dir/include"
  mv "$dir.tmp/package/bin/node" "$dir/bin/node"
  rm -rf "$dir.tmp"
fi
test "$("$dir/bin/node" --version)" = "v$version" || { echo "node-bin: $dir/bin/node is not v$version" >&2; exit 1; }
echo "$dir"
