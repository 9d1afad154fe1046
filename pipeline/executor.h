#pragma once
// Runs a recorded command list on the calling (queue submission) thread.
#include "pipeline/command_list.h"

namespace kiln::exec {

void execute_command_list(const CommandList& list);

}  // namespace kiln::exec
