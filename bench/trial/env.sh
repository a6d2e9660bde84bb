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
    # trial-2 (bench/trial-2.md, COMMITS=bench/trial/commits2.txt TRIAL=/tmp/trial2)
    vueuse) DEPS=; TRUTH_OPTS=(--max 3 --anymax 12 --varg=--project=unit --exclude '(^|/)(node_modules|fixtures|e2e|dist)/|\.browser\.test\.' --alias @vueuse/shared=packages/shared/index
      --alias @vueuse/core=packages/core/index --alias @vueuse/math=packages/math/index --alias @vueuse/components=packages/components/index) ;;
    jotai) DEPS=; TRUTH_OPTS=(--max 3 --alias jotai=src/index --alias jotai/vanilla=src/vanilla --alias jotai/react=src/react
      --alias jotai/vanilla/utils=src/vanilla/utils --alias jotai/react/utils=src/react/utils --alias jotai/utils=src/utils) ;;
    hono) DEPS=/tmp/trial2/hono-deps/node_modules; TRUTH_OPTS=(--max 6 --deps "$DEPS" --exclude '(^|/)(node_modules|fixtures|e2e|dist|runtime-tests|sandbox)/|\.case\.test\.') ;;
  esac
  export DEPS
}
