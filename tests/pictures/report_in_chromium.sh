#!/usr/bin/env bash
# Opens `fencelab report` pages in headless Chromium and saves a screenshot of each; fails on
# any console message (the page has no scripts, so any message is an error: a parse error, a
# refused load), on an empty page (a near-blank screenshot, or no text and no picture in the
# DOM), or when Chromium cannot open it. Skips (exit 77, ctest's SKIP_RETURN_CODE) with a
# message when Chromium is not installed: `tools/install-deps --with-chromium` installs it.
#
#   report_in_chromium.sh FENCELAB_BINARY OUTPUT_DIR
set -uo pipefail

binary="$1"
out="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIPPED: chromium is not installed (tools/install-deps --with-chromium installs it)"
  exit 77
fi
mkdir -p "$out"
failed=0
fail() { echo "FAILED: $*"; failed=1; }

for kernel in fences/write_read_xy litmus/iriw_inter barriers/incorrect_barrier_example; do
  page="$out/$(basename "$kernel").html"
  shot="$out/$(basename "$kernel").png"
  log="$out/$(basename "$kernel").log"
  rm -f "$shot"
  if ! "$binary" report "$root/kernels/$kernel.cu" -o "$page" >/dev/null; then
    fail "fencelab report $kernel"
    continue
  fi
  # Root (as in CI containers) needs --no-sandbox; nothing else is loaded but the page.
  flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --enable-logging=stderr --v=0)
  timeout 120 "$browser" "${flags[@]}" --window-size=1280,2400 --screenshot="$shot" "file://$page" 2>"$log" >/dev/null
  if [ ! -s "$shot" ]; then
    fail "$kernel: no screenshot (chromium's log: $log)"
    continue
  fi
  if grep -q "CONSOLE" "$log"; then
    fail "$kernel: console messages:"
    grep "CONSOLE" "$log"
  fi
  # A blank 1280x2400 PNG compresses to a few kilobytes; the report's text and pictures do not.
  size=$(stat -c %s "$shot")
  [ "$size" -gt 40000 ] || fail "$kernel: the screenshot is nearly empty ($size bytes)"
  dom="$(timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null)"
  grep -q "fencelab report" <<<"$dom" || fail "$kernel: the rendered page has no heading"
  grep -q "<svg" <<<"$dom" || fail "$kernel: the rendered page has no picture"
  echo "screenshot: $shot ($size bytes)"
done
exit "$failed"
