#!/usr/bin/env bash
# Installs Kiln's build and test dependencies from Debian 12's archive (run as root).
# Skips apt entirely when everything is already installed. Arguments: more packages to install
# the same way (scripts/sanitize.sh adds clang-19 and its runtimes).
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config python3 dpkg-dev file
  libvulkan-dev libvulkan1 vulkan-validationlayers vulkan-tools mesa-vulkan-drivers
  llvm-19-dev spirv-tools spirv-headers libspirv-cross-c-shared-dev glslang-tools
  libgtest-dev libpng-dev zlib1g-dev
  libxcb1-dev libxcb-shm0-dev libx11-dev libx11-xcb-dev xvfb x11-apps x11-utils
  libwayland-dev wayland-protocols weston
  libvkfft-dev glslang-dev libfftw3-dev
  mesa-utils libgl1-mesa-dri gfxreconstruct glmark2-x11 piglit
  "$@"
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "kiln: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
