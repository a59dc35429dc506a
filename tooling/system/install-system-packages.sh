#!/usr/bin/env bash
# Installs the Debian packages the test suite runs for real: searx (the SearXNG predecessor, started on
# loopback by the SearXNG tests). Already-installed packages are left alone, so a second run is quick.
# Needs root or sudo; on a machine without Debian's apt it explains what is missing and fails.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-packages: this needs Debian's apt-get (searx 1.1.0 from Debian 12)." >&2
  exit 1
fi

if /usr/bin/python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("searx") is None)' 2>/dev/null; then
  echo "install-system-packages: searx is already installed"
else
  bash "$here/../searx/start-searx.sh" install
fi
