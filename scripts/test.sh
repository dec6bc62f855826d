#!/usr/bin/env bash
# Sets up and runs every check: lint, typecheck, OpenAPI drift, and the test suite on PGlite and
# on PostgreSQL (127.0.0.1:5432, database test; required when CI is set).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# What only the tests and benches need: flite (speech for test audio), sox and pocketsphinx-testdata
# (the recognition bench), Debian's Chromium (driven by playwright-core; never a browser download)
# and a font for its screenshots; Python (with venv, setuptools and wheel, to pip-install its
# client offline), Go, PHP with curl and Composer for the clients.
test_packages=(flite sox pocketsphinx-testdata chromium fonts-dejavu-core python3 python3-venv python3-setuptools python3-wheel golang-go php-cli php-curl composer)
missing=()
for package in "${test_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432 && command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi

# Generated files are compared in a folder of this run's own, removed however the run ends.
work="$(mktemp -d -t hark-check-XXXXXX)"
# Checks running side by side stop with the run, however it ends (a failure, Ctrl-C, a cancel).
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# Every suite's temporary files (the clients' too) go in a folder of this run's own, removed with
# it, and a suite that leaves one of its hark-* files or folders behind fails the run.
# (Open to other users like /tmp: the private PostgreSQL clusters run as the postgres user.)
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
chmod 755 "$work"
chmod 1777 "$TMPDIR"

# Runs checks at once (each is one process on one core; the machine has more), each one's output
# kept apart and printed as it is waited for; fails when any failed. Arguments: name, function, ….
together() {
  local pids=() names=() failed=0
  while [ "$#" -gt 0 ]; do
    ("$2") >"$work/$1.log" 2>&1 &
    pids+=("$!")
    names+=("$1")
    shift 2
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then echo "== ${names[$i]}: passed"; else echo "== ${names[$i]}: FAILED" >&2; failed=1; fi
    cat "$work/${names[$i]}.log"
  done
  return "$failed"
}

lint() { npx eslint .; }
layers() { npx depcruise src --config .dependency-cruiser.cjs; }
typecheck() { npx tsc --noEmit; }
web_unit() { (cd web && npx vitest run); }
together lint lint layers layers typecheck typecheck "web unit tests" web_unit
echo "== openapi drift"
HARK_LOG_LEVEL=silent node bin/hark.js openapi > "$work/openapi.json"
if ! diff -q openapi.json "$work/openapi.json" >/dev/null; then
  echo "openapi.json is out of date: run npm run openapi and commit it" >&2
  diff openapi.json "$work/openapi.json" | head -20 >&2
  exit 1
fi
echo "== .env.example drift"
npx tsx scripts/generate-env-example.ts > "$work/env.example"
if ! diff -q .env.example "$work/env.example" >/dev/null; then
  echo ".env.example is out of date: run npx tsx scripts/generate-env-example.ts > .env.example and commit it" >&2
  exit 1
fi
echo "== docs/configuration.md drift"
npx tsx scripts/generate-config-doc.ts > "$work/configuration.md"
if ! diff -q docs/configuration.md "$work/configuration.md" >/dev/null; then
  echo "docs/configuration.md is out of date: run npx tsx scripts/generate-config-doc.ts > docs/configuration.md and commit it" >&2
  exit 1
fi
echo "== clients: every operation of openapi.json, and only those"
npx tsx scripts/generate-clients.ts --check
echo "== web: API types drift"
(cd web && npx openapi-typescript ../openapi.json -o "$work/schema.d.ts" >/dev/null 2>&1)
if ! diff -q clients/typescript/src/schema.d.ts "$work/schema.d.ts" >/dev/null; then
  echo "clients/typescript/src/schema.d.ts (the web app's and the TypeScript client's types) is out of date: run npm run api-types --prefix web and commit it" >&2
  exit 1
fi
# The clients, each against a Hark it starts (its own port and data folder).
python_client() { python3 -W error::ResourceWarning -m unittest discover -s clients/python/tests; }
go_client() { cd clients/go && test -z "$(gofmt -l .)" && go vet ./... && go test ./...; }
php_client() {
  for file in clients/php/src/*.php clients/php/examples/*.php clients/php/tests/*.php; do php -l "$file" >/dev/null; done
  php clients/php/tests/run.php
}
together "clients: Python" python_client "clients: Go (gofmt, go vet, tests)" go_client "clients: PHP (lint, tests)" php_client
echo "== tests"
# The runner takes the files in the order given, three at a time: the longest (minutes each: the
# browser journeys, several hosts, real speech on every store) go first, so that the run does not
# end waiting on one of them started last.
longest=(transcription hosts resilience web-quality-lead web-journey docs-commands call-analytics analysis cli topics encoder-unavailable pocketsphinx-pieces client-installs compat)
files=()
for name in "${longest[@]}"; do files+=("test/$name.test.ts"); done
for file in test/*.test.ts; do
  case " ${files[*]} " in *" $file "*) ;; *) files+=("$file") ;; esac
done
# Each file's time is printed at the end (the run's length is its longest chain of files).
if [ -t 1 ]; then reporter=spec; else reporter=tap; fi
node --import tsx --test --test-concurrency=3 --test-timeout=600000 \
  --test-reporter="$reporter" --test-reporter-destination=stdout \
  --test-reporter=./test/helpers/file-times-reporter.mjs --test-reporter-destination=stdout \
  "${files[@]}"
left="$(find "$TMPDIR" -maxdepth 1 -name 'hark-*' -printf '%f\n')"
if [ -n "$left" ]; then
  echo "the tests left these behind in the temporary folder:" >&2
  echo "$left" >&2
  exit 1
fi
