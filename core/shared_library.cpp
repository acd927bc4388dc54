#include "core/shared_library.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <stdexcept>

#include "core/input_error.h"

namespace shapevm::core {

SharedLibrary SharedLibrary::open(std::initializer_list<const char*> sonames,
                                  std::string_view purpose) {
  std::string reasons;
  for (const char* soname : sonames) {
    // RTLD_NOW: a missing symbol inside the library fails here, not in the middle of a run.
    if (void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return SharedLibrary(handle, soname);
    const char* why = dlerror();
    reasons += fmt::format("{}{}", reasons.empty() ? "" : "; ", why ? why : soname);
  }
  // The machine lacks a library (an environment problem, like a missing display): exit 2.
  throw InputError(*sonames.begin(),
                   fmt::format("cannot be loaded, and {} needs it ({})", purpose, reasons));
}

void* SharedLibrary::symbol(const char* name) const {
  dlerror();  // clear any earlier error, so a null result is told apart from a null symbol
  void* address = dlsym(handle_, name);
  if (const char* why = dlerror())
    throw std::runtime_error(fmt::format("{} has no symbol {} ({})", soname_, name, why));
  return address;
}

}  // namespace shapevm::core
