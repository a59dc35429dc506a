#!/usr/bin/env bash
# Installs the pinned `@openai/codex` into a cache folder that belongs to no package, so the
# real-binary tests can start `codex app-server`. Prints the path of the `codex` binary on stdout;
# export it as MONO_AGENT_CODEX_BIN (the tests also look in the default cache folder on their own).
#
#   MONO_AGENT_CODEX_VERSION  version to install (default: src/generated/protocol/CODEX_VERSION)
#   MONO_AGENT_CODEX_CACHE    cache folder (default: ${XDG_CACHE_HOME:-$HOME/.cache}/mono-agent-web/codex-<version>)
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
version="${MONO_AGENT_CODEX_VERSION:-$(tr -d '[:space:]' <"$package_dir/src/generated/protocol/CODEX_VERSION")}"
cache="${MONO_AGENT_CODEX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mono-agent-web/codex-$version}"
binary="$cache/node_modules/.bin/codex"
# `codex --version` writes helper links into CODEX_HOME; keep them out of the operator's ~/.codex.
export CODEX_HOME="$cache/codex-home"

if [ -x "$binary" ] && [ "$("$binary" --version 2>/dev/null || true)" = "codex-cli $version" ]; then
  echo "$binary"
  exit 0
fi

mkdir -p "$cache" "$CODEX_HOME"
# A package.json of its own keeps npm from walking up into an enclosing project.
[ -f "$cache/package.json" ] || printf '{ "private": true }\n' >"$cache/package.json"
npm install --prefix "$cache" --no-fund --no-audit --loglevel=error "@openai/codex@$version" >&2
installed="$("$binary" --version 2>/dev/null)"
if [ "$installed" != "codex-cli $version" ]; then
  echo "expected codex-cli $version, got: $installed" >&2
  exit 1
fi
echo "$installed installed" >&2
echo "$binary"
