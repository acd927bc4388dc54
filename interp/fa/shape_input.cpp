// File arguments: a plain path, or "CONTAINER:MEMBER" for a member of an EALIB container.
#include "interp/fa/shape_input.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "interp/fa/ealib.h"

namespace shapevm::fa {

LoadedInput load_input(const std::string& spec) {
  const MemberSpec split = parse_member_spec(spec);
  if (!split.member) return {spec, read_file(spec)};  // throws "no such file"
  const std::vector<uint8_t> container_bytes = read_file(split.path);
  const EaLib lib(container_bytes, split.path);
  const LibEntry* entry = lib.find(*split.member);
  if (entry == nullptr) {
    throw InputError(spec, fmt::format("no member named {} in {} ({} members)", *split.member,
                                       split.path, lib.entries().size()));
  }
  return {split.path + ":" + entry->name, lib.extract(*entry)};
}

Shape load_shape_spec(const std::string& spec) {
  LoadedInput in = load_input(spec);
  return load_shape(in.bytes, in.source);
}

}  // namespace shapevm::fa
