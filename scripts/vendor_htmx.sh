#!/usr/bin/env bash
# Refresh the vendored htmx from the npm package htmx.org (no CDN at run time).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-2.0.11}
tmp=$(mktemp -d)
(cd "$tmp" && npm pack "htmx.org@$version" >/dev/null && tar xzf htmx.org-*.tgz)
cp "$tmp/package/dist/htmx.min.js" static/vendor/htmx.min.js
cp "$tmp/package/LICENSE" static/vendor/htmx.LICENSE
echo "htmx.org $version (npm), dist/htmx.min.js — refresh with scripts/vendor_htmx.sh" > static/vendor/README.txt
rm -rf "$tmp"
