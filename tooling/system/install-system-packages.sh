#!/usr/bin/env bash
# Installs the programs the test suite runs for real: searx from Debian (the SearXNG predecessor,
# started on loopback by the SearXNG tests), Debian's Chromium and the pinned agent-browser (the
# WebFetch renderer tests and the demo's browser test drive them on loopback pages), Debian's
# redis-server (each Redis test starts its own on a free loopback port; the packaged service is
# stopped and disabled so nothing stays on port 6379), and the pinned `codex` CLI from npm into a
# cache folder (started offline by the Codex client tests). What is already installed is left alone,
# so a second run is quick. Needs root or sudo for apt; without Debian's apt it explains what is
# missing and fails.
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

if [ -x /usr/lib/chromium/chromium ] && dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'install ok installed'; then
  echo "install-system-packages: chromium is already installed"
else
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

bash "$here/../../packages/extract/scripts/install-agent-browser.sh" >/dev/null

if command -v redis-server >/dev/null 2>&1; then
  echo "install-system-packages: redis-server is already installed"
else
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update
  # policy-rc.d exit 101 keeps the package from starting its service during the install.
  policy=/usr/sbin/policy-rc.d
  created_policy=no
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod 0755 "$policy"
    created_policy=yes
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server
  if [ "$created_policy" = yes ]; then as_root rm -f "$policy"; fi
fi
# Tests never use the packaged service; make sure it is not running on the default port.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  as_root systemctl disable --now redis-server >/dev/null 2>&1 || true
elif command -v service >/dev/null 2>&1; then
  as_root service redis-server stop >/dev/null 2>&1 || true
  as_root update-rc.d redis-server disable >/dev/null 2>&1 || true
fi

bash "$here/../../packages/codex-app-server-client/scripts/install-codex.sh" >/dev/null
