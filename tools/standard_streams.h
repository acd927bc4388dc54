// The program's standard C++ streams (std::cin, std::cout, std::cerr) are built when a command
// first needs them, not before main (tools/lazy_iostream/iostream says why).
#pragma once

namespace shapevm::tools {

// Builds the standard streams if they are not built yet; call before any use of them. They stay
// until the process ends, and are flushed then.
void use_standard_streams();

}  // namespace shapevm::tools
