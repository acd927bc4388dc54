// File arguments: a plain path, or "CONTAINER:MEMBER" for a member of an EALIB container.
#include "interp/fa/shape_input.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/fa/ealib.h"

namespace shapevm::fa {

LoadedInput load_input(const std::string& spec) {
  // An existing file wins even if its name contains ':', so such files stay reachable.
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec)) return {spec, read_file(spec)};

  // Member names never contain ':', but directory names might: split at the last one.
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos) return {spec, read_file(spec)};  // throws "no such file"
  const std::string container = spec.substr(0, colon);
  const std::string member = spec.substr(colon + 1);
  if (container.empty() || !std::filesystem::is_regular_file(container, ec)) {
    throw InputError(spec, fmt::format("no such file, and no container file \"{}\" to take member "
                                       "\"{}\" from",
                                       container, member));
  }
  if (member.empty()) {
    throw InputError(spec,
                     fmt::format("expected a member name after the ':' ({}:MEMBER)", container));
  }

  const std::vector<uint8_t> container_bytes = read_file(container);
  const EaLib lib(container_bytes, container);
  const LibEntry* entry = lib.find(member);
  if (entry == nullptr) {
    throw InputError(spec, fmt::format("no member named {} in {} ({} members)", member, container,
                                       lib.entries().size()));
  }
  return {container + ":" + entry->name, lib.extract(*entry)};
}

Shape load_shape_spec(const std::string& spec) {
  LoadedInput in = load_input(spec);
  return load_shape(in.bytes, in.source);
}

}  // namespace shapevm::fa
