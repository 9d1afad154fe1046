#!/usr/bin/env bash
# Builds Kiln's Debian package (cmake/Packaging.cmake) from this checkout and prints its path:
# installs what is missing (scripts/install-deps.sh), builds the driver alone (RelWithDebInfo, the
# build type CI tests, stripped by cpack; prefix /usr,
# no tests or tools) into $KILN_PACKAGE_BUILD_DIR (default build-package/) with scripts/build.sh's
# ccache set-up, then runs cpack. Install the result with `apt install ./build-package/<name>.deb`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${KILN_PACKAGE_BUILD_DIR:-$repo/build-package}"
"$repo/scripts/install-deps.sh"
KILN_BUILD_DIR="$build" KILN_BUILD_TYPE="${KILN_PACKAGE_BUILD_TYPE:-RelWithDebInfo}" \
  KILN_CMAKE_ARGS="-DCMAKE_INSTALL_PREFIX=/usr -DKILN_BUILD_TESTS=OFF -DKILN_BUILD_TOOLS=OFF" \
  "$repo/scripts/build.sh" vulkan_kiln
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB --config CPackConfig.cmake >cpack.log 2>&1) || { cat "$build/cpack.log"; exit 1; }
debs=("$build"/*.deb)
[ -f "${debs[0]}" ] || { cat "$build/cpack.log"; echo "kiln: cpack made no .deb" >&2; exit 1; }
echo "${debs[0]}"
