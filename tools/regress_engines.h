// The engines the regression runner can run cases of, by name (harness/case_engine.h). Each
// engine's case renderer lives in tools/regress_<engine>.cpp; adding an engine is one line here.
#pragma once

#include <memory>

#include "harness/case_engine.h"

namespace shapevm::tools {

// "fa": Fighters Anthology shapes (.SH, LIB:MEMBER, or assembler text .fas).
std::unique_ptr<harness::CaseRenderer> make_fa_case_renderer();  // regress_fa.cpp

harness::EngineRegistry builtin_case_engines();

}  // namespace shapevm::tools
