#!/bin/sh
# collect-seeds.sh <shader binary dir> <shader source dir> <seed dir>: copies the compute shaders
# the tests compile (GLSL *.comp and SPIR-V assembly with a GLCompute entry point) into <seed dir>.
set -eu
bin="$1"; src="$2"; out="$3"
mkdir -p "$out"
cp "$bin"/*.comp.spv "$out"/
for f in "$bin"/*.spvasm.spv; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .spv)
  if grep -q 'OpEntryPoint GLCompute' "$src/$name"; then cp "$f" "$out"/; fi
done
