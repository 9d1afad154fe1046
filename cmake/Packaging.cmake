# The Debian package (scripts/package.sh): libvulkan_kiln.so in the library directory and its
# manifest in /usr/share/vulkan/icd.d/, where the Vulkan loader finds it as it finds Mesa's
# drivers. Only the install() rules of component "driver" are packaged (icd/ and manifest/), never
# tests or tools. `cpack -G DEB` in a build tree makes it (after the tree is built: cpack does not
# build). Configure with -DCMAKE_INSTALL_PREFIX=/usr so that the library goes to the multiarch
# directory, /usr/lib/x86_64-linux-gnu (GNUInstallDirs); from other trees it goes to /usr/lib.
set(KILN_PACKAGE_MAINTAINER "Kiln developers <kiln@localhost>" CACHE STRING "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kiln-vulkan-driver)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${KILN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Kiln: Vulkan 1.3 driver that runs on the CPU")
set(CPACK_PACKAGE_DESCRIPTION
  "Kiln is a Vulkan 1.3 installable client driver (ICD) that runs entirely on the CPU; shaders are
JIT-compiled from SPIR-V through LLVM into SIMD kernels. The package installs the driver and its
manifest in /usr/share/vulkan/icd.d/, so the Vulkan loader offers Kiln to every Vulkan program,
beside any other driver, with no environment variable.")
# The one install() component packaged, in one package without a component suffix in its name.
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};${PROJECT_NAME};driver;/")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # Debian ships shared libraries stripped

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # kiln-vulkan-driver_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# dpkg-shlibdeps (dpkg-dev; `file` finds the ELF files) adds the packages of every library the
# driver links (libllvm19, libspirv-cross-c-shared0, the X11/Wayland client libraries...). The
# loader is not linked but is what loads the driver: Mesa's Vulkan drivers depend on it too.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS libvulkan1)

include(CPack)
