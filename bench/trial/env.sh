# Per-repository settings of the trial (sourced by all.sh): node_modules and truth options.
export NODE_BIN=${NODE_BIN:-/work/main/testdata/vitest5/node_modules/node/bin}
repo_env() {
  case $1 in
    ufo) DEPS=/tmp/trial/es-deps/node_modules; TRUTH_OPTS=(--deps "$DEPS") ;;
    es-toolkit) DEPS=/tmp/trial/es-deps/node_modules
      TRUTH_OPTS=(--deps "$DEPS" --alias es-toolkit/compat=src/compat/index --alias es-toolkit=src/index) ;;
    h3) DEPS=/tmp/trial/h3-deps/node_modules; TRUTH_OPTS=(--deps "$DEPS" --alias h3=src/index) ;;
    h3b) DEPS=/tmp/trial/h3-deps32/node_modules; TRUTH_OPTS=(--deps "$DEPS" --alias h3=src/index) ;; # h3 with vitest 3.2.4 (finding 1)
    nuxt) DEPS=; TRUTH_OPTS=() ;;
  esac
  export DEPS
}
