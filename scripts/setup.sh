#!/usr/bin/env bash
# One idempotent set-up step, run before `npm start` and `npm test` (prestart/pretest hooks).
# - installs npm packages when node_modules is missing or older than package-lock.json;
# - installs the Debian packages the service needs when they are missing (as root), or says what to install.
# When everything is present it only stats a few files (well under a second).
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(ffmpeg sox espeak-ng pocketsphinx pocketsphinx-en-us pocketsphinx-testdata sphinxbase-utils festival festvox-us-slt-hts openssl baresip-core sip-tester kamailio chromium fonts-noto-core poppler-utils)

missing_debian_packages() {
  local missing=()
  local status
  for package in "${DEBIAN_PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
  done
  echo "${missing[@]:-}"
}

if command -v dpkg-query >/dev/null 2>&1; then
  missing=$(missing_debian_packages)
  if [[ -n "$missing" ]]; then
    if [[ "$(id -u)" == "0" ]] && command -v apt-get >/dev/null 2>&1; then
      echo "setup: installing Debian packages: $missing" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2
      # shellcheck disable=SC2086
      apt-get install -y -qq --no-install-recommends $missing >&2
    else
      echo "setup: missing Debian packages: $missing" >&2
      echo "setup: install them with: sudo apt-get update && sudo apt-get install -y --no-install-recommends $missing" >&2
      exit 1
    fi
  fi
else
  echo "setup: not a Debian system; make sure these are installed: ${DEBIAN_PACKAGES[*]}" >&2
fi

stamp=node_modules/.setup-stamp
if [[ ! -f "$stamp" || package-lock.json -nt "$stamp" || package.json -nt "$stamp" ]]; then
  echo "setup: installing npm packages (npm ci; better-sqlite3 compiles from source, about 2 minutes)" >&2
  npm ci --no-audit --no-fund >&2
  touch "$stamp"
fi
