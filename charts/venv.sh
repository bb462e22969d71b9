# Sourced by bin/charts and bin/charts-test: keeps the charts' virtualenv in step with the pinned requirements.
# charts_venv FILE... installs each requirements FILE whose content changed since it was last installed
# (a sha256 stamp per file inside the venv), creating the venv on first use. Sets CHARTS_PYTHON.
#
# The virtualenv lives outside the checkout, in $OMBTX_VENVS (default ~/.cache/omb-tx/venvs), named after the
# Python and requirements.txt, so every checkout and clean clone of one release shares it; CHARTS_VENV=DIR puts it
# elsewhere.

charts_find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.11 python3; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  echo "charts: Python 3.11 or newer is required (set PYTHON=/path/to/python3.11)" >&2
  return 1
}

# The shared virtualenv's folder for PYTHON and REQUIREMENTS: charts-<hash of the interpreter's version and the file>.
charts_venv_dir() {
  local key
  key="$( { "$1" -c 'import sys; print(sys.executable, sys.version)'; cat "$2"; } | sha256sum | cut -c1-16)"
  echo "${OMBTX_VENVS:-${XDG_CACHE_HOME:-$HOME/.cache}/omb-tx/venvs}/charts-$key"
}

charts_venv() {
  local charts_dir venv python file stamp wanted
  charts_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  python="$(charts_find_python)" || return 1
  venv="${CHARTS_VENV:-$(charts_venv_dir "$python" "$charts_dir/requirements.txt")}"
  mkdir -p "$venv" || return 1
  # Two runs starting at once must not install into the same venv concurrently.
  exec 9>"$venv/.lock"
  command -v flock >/dev/null 2>&1 && flock 9
  if [ ! -x "$venv/bin/python" ]; then
    echo "charts: creating $venv with $python (first use)" >&2
    "$python" -m venv "$venv" >&2 || return 1
  fi
  for file in "$@"; do
    wanted="$(cat "$charts_dir/requirements.txt" "$file" | sha256sum | cut -d' ' -f1)"
    stamp="$venv/.installed-$(basename "$file").sha256"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
      echo "charts: installing $(basename "$file") into $venv" >&2
      rm -f "$stamp"
      "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$file" >&2 || {
        echo "charts: pip install -r $file failed" >&2
        return 1
      }
      echo "$wanted" >"$stamp"
    fi
  done
  exec 9>&-
  CHARTS_PYTHON="$venv/bin/python"
  export PYTHONPATH="$charts_dir${PYTHONPATH:+:$PYTHONPATH}"
  export MPLBACKEND=Agg
}
