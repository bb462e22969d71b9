# shellcheck shell=bash
# Shared by the bin/ scripts: where omb-tx lives, building it when needed, and its class path.
OMBTX_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export OMBTX_HOME

# The embedded broker's launcher jar. The launcher runs the broker from the broker-lib/ folder beside this jar
# (kafka-broker/target/broker-lib, also in the deploy tarball), unless OMBTX_BROKER_LIB or -Dombtx.broker.lib
# names another folder.
ombtx_broker_jar() {
  local jar
  for jar in "$OMBTX_HOME"/kafka-broker/target/kafka-broker-*.jar; do
    case "$jar" in *-sources.jar|*-tests.jar) continue ;; esac
    [ -f "$jar" ] && { echo "$jar"; return 0; }
  done
  return 1
}

# Whether the broker's class path is where the launcher will look for it.
ombtx_broker_lib_present() {
  local jar
  [ -n "${OMBTX_BROKER_LIB:-}" ] && return 0
  jar="$(ombtx_broker_jar)" || return 1
  [ -d "$(dirname "$jar")/broker-lib" ]
}

# Maven: mvn from PATH, else the project's wrapper (./mvnw, which fetches the pinned Maven once).
ombtx_mvn() {
  if command -v mvn >/dev/null 2>&1; then
    mvn "$@"
  elif [ -x "$OMBTX_HOME/mvnw" ]; then
    "$OMBTX_HOME/mvnw" "$@"
  else
    echo "error: Maven is needed to build omb-tx: install it (apt-get install maven) or keep ./mvnw" >&2
    return 2
  fi
}

# Whether the Java build is missing or older than a source: a jar or the broker's class path is missing, or any
# source is newer than the last build.
ombtx_build_stale() {
  local stamp="$OMBTX_HOME/runner/target/.omb-tx-built"
  if [ ! -f "$stamp" ] || ! ls "$OMBTX_HOME"/runner/target/runner-*.jar "$OMBTX_HOME"/runner-kafka/target/runner-kafka-*.jar \
      "$OMBTX_HOME"/driver-kafka-tx/target/driver-kafka-tx-*.jar \
      "$OMBTX_HOME"/driver-redpanda-tx/target/driver-redpanda-tx-*.jar \
      "$OMBTX_HOME"/driver-aeron/target/driver-aeron-*.jar >/dev/null 2>&1 \
      || ! ombtx_broker_jar >/dev/null || ! ombtx_broker_lib_present; then
    return 0
  fi
  [ -n "$(find "$OMBTX_HOME" -path "$OMBTX_HOME/charts" -prune -o -path "$OMBTX_HOME/deploy" -prune -o \
        \( -name pom.xml -o -path '*/src/main/*' \) -newer "$stamp" -print -quit 2>/dev/null)" ]
}

# Builds the Java modules (tests skipped) when the build is stale. Under a lock (flock on .omb-tx-build.lock), so
# scripts started together build once: the others wait, then find the build fresh.
ombtx_ensure_built() {
  # An unpacked distribution (deploy/'s worker tarball) has no sources to build from: it runs as it is, or says
  # what it lacks.
  if [ ! -f "$OMBTX_HOME/pom.xml" ]; then
    ombtx_check_distribution
    return 0
  fi
  ombtx_build_stale || return 0
  if ! command -v flock >/dev/null 2>&1; then
    ombtx_build
    return 0
  fi
  local code=0
  (
    flock 9 || exit 1
    if ombtx_build_stale; then ombtx_build; fi
  ) 9>"$OMBTX_HOME/.omb-tx-build.lock" || code=$?
  [ "$code" -eq 0 ] || exit "$code"
}

ombtx_build() {
  if ! command -v mvn >/dev/null 2>&1 && [ ! -x "$OMBTX_HOME/mvnw" ]; then
    echo "error: Maven (mvn) is needed to build omb-tx; install it (apt-get install maven)" >&2
    exit 2
  fi
  echo "Building omb-tx (mvn package, tests skipped)..." >&2
  (cd "$OMBTX_HOME" && ombtx_mvn -q -B -DskipTests package) >&2 || { echo "error: the build failed" >&2; exit 1; }
  touch "$OMBTX_HOME/runner/target/.omb-tx-built"
}

# For a distribution without sources: the jars and the embedded broker's class path must be there.
ombtx_check_distribution() {
  local missing=""
  ls "$OMBTX_HOME"/runner/target/runner-*.jar >/dev/null 2>&1 || missing="$missing runner/target/runner-*.jar"
  ls "$OMBTX_HOME"/runner/target/lib >/dev/null 2>&1 || missing="$missing runner/target/lib/"
  ls "$OMBTX_HOME"/runner-kafka/target/runner-kafka-*.jar >/dev/null 2>&1 \
    || missing="$missing runner-kafka/target/runner-kafka-*.jar"
  ls "$OMBTX_HOME"/runner-kafka/target/lib >/dev/null 2>&1 || missing="$missing runner-kafka/target/lib/"
  ombtx_broker_jar >/dev/null || missing="$missing kafka-broker/target/kafka-broker-*.jar"
  ombtx_broker_lib_present || missing="$missing kafka-broker/target/broker-lib/"
  if [ -n "$missing" ]; then
    echo "error: $OMBTX_HOME is an omb-tx distribution without sources (no pom.xml), so it cannot be rebuilt here," \
      "and it lacks:$missing. Pack it again from a built checkout (deploy.yml does)." >&2
    exit 2
  fi
}

# The runner, its Kafka cluster system (runner-kafka, found by the runner through ServiceLoader), the embedded broker's
# launcher and the drivers, with their libraries.
ombtx_classpath() {
  local cp="" jar
  for jar in "$OMBTX_HOME"/runner/target/runner-*.jar "$OMBTX_HOME"/runner-kafka/target/runner-kafka-*.jar \
      "$OMBTX_HOME"/kafka-broker/target/kafka-broker-*.jar "$OMBTX_HOME"/driver-*/target/driver-*.jar; do
    case "$jar" in *-sources.jar|*-tests.jar) continue ;; esac
    [ -f "$jar" ] && cp="$cp:$jar"
  done
  cp="$cp:$OMBTX_HOME/runner/target/lib/*"
  [ -d "$OMBTX_HOME/runner-kafka/target/lib" ] && cp="$cp:$OMBTX_HOME/runner-kafka/target/lib/*"
  for lib in "$OMBTX_HOME"/driver-*/target/lib; do
    [ -d "$lib" ] && cp="$cp:$lib/*"
  done
  # Third-party drivers: OMBTX_CLASSPATH=/path/to/driver.jar:/path/to/deps/*
  [ -n "${OMBTX_CLASSPATH:-}" ] && cp="$cp:$OMBTX_CLASSPATH"
  echo "${cp#:}"
}

# Agrona 2 (under driver-aeron's Aeron) reads jdk.internal.misc.Unsafe, which Java 17 exports only when asked.
OMBTX_JAVA_EXPORTS="--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"

# The runner's class-data archive (AppCDS; see io.ombtx.runner.ClassDataArchive): the JVM flags that map it, or, while
# it is missing, that let the first complete run write it. One archive per Java and class path (the jars' names,
# sizes and times), under runner/target/cds/. OMBTX_CDS=off leaves it out.
ombtx_cds_flags() {
  local cp="$1" dir key entry
  [ "${OMBTX_CDS:-on}" = off ] && return 0
  dir="$OMBTX_HOME/runner/target/cds"
  case "$dir" in *[[:space:]]*) return 0 ;; esac # the flags are split on blanks by the caller
  mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || return 0
  key="$(
    readlink -f "$(command -v java)"
    IFS=:
    for entry in $cp; do # unquoted: a lib/* entry expands to its jars
      if [ -f "$entry" ]; then stat -c '%n %s %Y' -- "$entry"; fi
    done
  )" || return 0
  key="$(printf '%s' "$key" | cksum | cut -d' ' -f1)"
  # The JVM's own notes on an archive (a stale one it refuses, classes it skips) stay off the console.
  if [ -f "$dir/$key.jsa" ]; then
    echo "-XX:SharedArchiveFile=$dir/$key.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
  else
    # Rebuilt jars make a new key: keep the four newest archives (about 30 MB each).
    # shellcheck disable=SC2012
    ls -t "$dir"/*.jsa 2>/dev/null | tail -n +5 | xargs -r rm -f
    echo "-XX:+RecordDynamicDumpInfo -Dombtx.cds.archive=$dir/$key.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
  fi
}

# No JIT flags: omb-tx's JVMs compile with HotSpot's defaults, as a bare kafka-clients loop does. Compiling
# omb-tx's own classes early (CompileThresholdScaling 0.05 for io.ombtx.*, as omb-tx once did) made HotSpot compile
# the closed loop's per-operation method with all of kafka-clients' transaction path inlined: a C2 compilation of
# about a second, at the start of a short measured phase, on a core the broker and the loop need
# (docs/load-generation.md).
ombtx_java() {
  local main="$1" cp; shift
  cp="$(ombtx_classpath)"
  # Unquoted on purpose: the options and the CDS flags are lists of words.
  # shellcheck disable=SC2086,SC2046
  exec java ${OMBTX_JAVA_OPTS:--Xms512m -Xmx2g -XX:+UseG1GC} $(ombtx_cds_flags "$cp") $OMBTX_JAVA_EXPORTS \
    -Dombtx.home="$OMBTX_HOME" -cp "$cp" "$main" "$@"
}
