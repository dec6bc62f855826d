#!/usr/bin/env bash
# Installs what the service needs on Debian 12 with Node 20: system packages (as root, only when
# missing), the npm dependencies, and the built web interface. Test-only packages are installed by
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# wamerican-large: the word list whose capitalised-only entries give names their capitals.
packages=(ffmpeg libgomp1 libpocketsphinx3 pocketsphinx-en-us espeak-ng wamerican-large postgresql)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# The web interface: its own packages, built into web/dist (served at /) when its sources changed.
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  npm ci --prefix web --no-audit --no-fund
fi
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/index.html web/vite.config.ts web/package-lock.json web/public -newer web/dist/index.html -print -quit)" ]; then
  npm run build --prefix web
fi
