#!/usr/bin/env bash
# Installs what the service needs on Debian 12 with Node 20.19+, 22.13+ or 24: system packages (as root, only when
# missing), the npm dependencies, and the built web interface. Test-only packages are installed by
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Node lines every locked package supports (package.json's engines; test/node-lts.test.ts checks the locks).
node -e '
const [major, minor] = process.versions.node.split(".").map(Number);
if (major === 20 ? minor < 19 : major === 21 || (major === 22 && minor < 13) || major < 20) {
  console.error(`setup: Hark needs Node 20.19 or newer on line 20, 22.13 or newer on line 22, or a newer line (24 LTS); this is ${process.version}`);
  process.exit(1);
}'

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
