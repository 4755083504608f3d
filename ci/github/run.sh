#!/usr/bin/env bash
# Runs tack for the GitHub Action: the run (or certification), then the step summary, one
# annotation per rule that did not hold, and the outputs. It always exits 0: the action's last
# step exits with tack's code, after the reports were kept as an artifact.
set -uo pipefail
tack="${TACK:-tack}"
reports="${INPUT_REPORTS_DIR:-tack-reports}"
mkdir -p "$reports"
# This step's own folder under the reports folder: the run folder tack writes into it is this run's,
# whatever the reports folder already holds (an earlier step, a cache). Interrupted, tack still
# writes it (marked interrupted) before it exits 130 or 143.
own=$(mktemp -d "$reports/run-XXXXXX")
args=("${INPUT_COMMAND:-run}" --reports-dir "$own")
if [ -n "${INPUT_ENV_FILE:-}" ]; then args+=(--env-file "$INPUT_ENV_FILE"); fi
# The token page's browser: the input, else whatever tack finds (the runner's Google Chrome).
if [ -n "${INPUT_BROWSER:-}" ]; then export TACK_BROWSER="$INPUT_BROWSER"; fi
if [ "${INPUT_REQUIRE_ALL:-false}" = true ] && [ "${INPUT_COMMAND:-run}" = run ]; then args+=(--require-all); fi
# Further arguments are split on blanks, as a shell would split them unquoted.
read -r -a extra <<< "${INPUT_ARGS:-}"

"$tack" "${args[@]}" "${extra[@]}"
code=$?

# The run's folder: the one folder tack wrote into this step's own folder (it writes one even when
# it stops early); none when tack could not start at all.
dir=$(find "$own" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | head -n 1)
if [ -n "$dir" ] && [ -f "$dir/summary.md" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$dir/summary.md" >> "$GITHUB_STEP_SUMMARY"
fi
if [ -n "$dir" ] && [ -f "$dir/results.json" ]; then "$tack" annotate "$dir/results.json"; fi
{
  echo "exit-code=$code"
  echo "reports-dir=$dir"
  echo "results=${dir:+$dir/results.json}"
} >> "${GITHUB_OUTPUT:-/dev/null}"
exit 0
