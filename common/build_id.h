#pragma once
// Which build of Kiln this is: the GNU build ID the linker stamped into the object that holds this
// code (libvulkan_kiln.so, or a test binary that links Kiln's modules). Anything stored by one
// build and read by another — VkPipelineCache data, the on-disk kernel cache — is keyed on it, so
// object code from an older build (whose kernel ABI may differ) is never linked.
#include <string>

namespace kiln {

// Hex string of the build ID; without one (a linker that does not write it), the compile date
// and time of this file, which is weaker but still changes with every rebuild of it.
const std::string& build_id();

}  // namespace kiln
