#!/usr/bin/env bash
# Installs the pinned agent-browser (the renderer WebFetch drives for `render`) into a cache folder
# that belongs to no package, so the real-browser tests and benchmarks can run it. Prints the path
# of the `agent-browser` launcher on stdout; export it as MONO_AGENT_BROWSER_BIN (the tests also look
# in the default cache folder on their own).
#
# Why an exact version: releases from 0.28.0 declare `engines.node >= 24` (their build toolchain),
# so a plain `npm install agent-browser` on Node 20 quietly picks 0.27.0, which lacks the flags the
# renderer needs; and a caret range on 0.x pins the minor version. The package ships its native
# binaries in the tarball, so its postinstall downloads nothing.
#
#   MONO_AGENT_BROWSER_VERSION  version to install (default: scripts/AGENT_BROWSER_VERSION)
#   MONO_AGENT_BROWSER_CACHE    cache folder (default: ${XDG_CACHE_HOME:-$HOME/.cache}/mono-agent-web/agent-browser-<version>)
set -euo pipefail

package_dir="$(cd "$(dirname "$0")/.." && pwd)"
version="${MONO_AGENT_BROWSER_VERSION:-$(tr -d '[:space:]' <"$package_dir/scripts/AGENT_BROWSER_VERSION")}"
cache="${MONO_AGENT_BROWSER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mono-agent-web/agent-browser-$version}"
binary="$cache/node_modules/.bin/agent-browser"
# No update check against the internet while checking the version.
export AGENT_BROWSER_NO_VERSION_CHECK=1

if [ -x "$binary" ] && [ "$("$binary" --version 2>/dev/null || true)" = "agent-browser $version" ]; then
  echo "$binary"
  exit 0
fi

mkdir -p "$cache"
# A package.json of its own keeps npm from walking up into an enclosing project.
[ -f "$cache/package.json" ] || printf '{ "private": true }\n' >"$cache/package.json"
# The engines warning (EBADENGINE) is expected on Node 20: the CLI is a native binary.
npm install --prefix "$cache" --no-fund --no-audit --loglevel=error --save-exact "agent-browser@$version" >&2
installed="$("$binary" --version 2>/dev/null)"
if [ "$installed" != "agent-browser $version" ]; then
  echo "expected agent-browser $version, got: $installed" >&2
  exit 1
fi
echo "$installed installed" >&2
echo "$binary"
