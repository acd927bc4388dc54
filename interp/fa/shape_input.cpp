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
  return load_member(read_file(split.path), split.path, *split.member);
}

LoadedInput load_member(std::span<const uint8_t> container, const std::string& path,
                        const std::string& member) {
  const EaLib lib(container, path);
  const LibEntry* entry = lib.find(member);
  if (entry == nullptr) {
    throw InputError(path + ":" + member, fmt::format("no member named {} in {} ({} members)",
                                                      member, path, lib.entries().size()));
  }
  return {path + ":" + entry->name, lib.extract(*entry)};
}

Shape load_shape_spec(const std::string& spec) {
  LoadedInput in = load_input(spec);
  return load_shape(in.bytes, in.source);
}

}  // namespace shapevm::fa
