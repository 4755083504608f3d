#!/usr/bin/env bash
# Installs the tack package (INPUT_PACKAGE: name@version or a tarball) into a folder of its own and
# tells the next steps where its executable is (TACK in GITHUB_ENV).
set -euo pipefail
dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tack-action"
mkdir -p "$dir"
npm install --prefix "$dir" --no-save --no-audit --no-fund --prefer-offline --loglevel=error "${INPUT_PACKAGE:?INPUT_PACKAGE names the tack package to install}"
echo "TACK=$dir/node_modules/.bin/tack" >> "${GITHUB_ENV:?GITHUB_ENV is set by GitHub Actions}"
