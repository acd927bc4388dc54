#include "tools/standard_streams.h"

#include <ios>

namespace shapevm::tools {

void use_standard_streams() {
  // The standard's own way to have the streams built: the first ios_base::Init constructed
  // builds them (a later one only counts); this one's destructor, at exit, flushes them.
  static const std::ios_base::Init streams;
}

}  // namespace shapevm::tools
