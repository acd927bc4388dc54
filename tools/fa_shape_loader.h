// Shared by the FA subcommands: resolve a file argument (plain path or LIB:MEMBER) to a Shape.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "interp/fa/shape.h"
#include "interp/fa/shape_input.h"
#include "interp/fa/walker.h"

namespace shapevm::tools {

inline fa::Shape load_fa_shape(const std::string& spec) {
  fa::LoadedInput in = fa::load_input(spec);
  return fa::load_shape(in.bytes, in.source);
}

// Adds --objend=absolute|relative (how PtrToObjEnd's operand is read; docs/fa.md).
inline void add_objend_option(CLI::App* cmd, fa::WalkOptions& options) {
  static const std::map<std::string, fa::ObjEndReading> kReadings{
      {"absolute", fa::ObjEndReading::kAbsolute}, {"relative", fa::ObjEndReading::kRelative}};
  cmd->add_option(
         "--objend", options.obj_end_reading,
         "How PtrToObjEnd's operand is read: absolute (the seed, default) or relative (to the "
         "end of the instruction, as OpenFA reads it)")
      ->transform(CLI::CheckedTransformer(kReadings, CLI::ignore_case));
}

}  // namespace shapevm::tools
