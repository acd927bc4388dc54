#include "harness/program_case_renderer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "core/input_error.h"
#include "harness/program_frame.h"
#include "interp/common/registry.h"

namespace shapevm::harness {

StateRequest case_state_request(const RegressCase& c) {
  StateRequest r;
  r.width = c.width;
  r.height = c.height;
  const CaseState& s = c.state;
  if (s.frame) r.options.push_back({"frame", fmt::to_string(*s.frame)});
  if (s.lod) r.options.push_back({"lod", fmt::to_string(*s.lod)});
  if (s.detail) r.options.push_back({"detail", fmt::to_string(*s.detail)});
  if (s.destroyed) r.options.push_back({"destroyed", "1"});
  if (s.effects) r.options.push_back({"effects", fmt::to_string(*s.effects)});
  if (!s.camera.empty()) r.options.push_back({"camera", s.camera});
  if (s.merged) r.options.push_back({"merged", "1"});
  r.sets = s.sets;
  return r;
}

namespace {

class ProgramCaseRenderer : public CaseRenderer {
 public:
  explicit ProgramCaseRenderer(std::string engine) : engine_(std::move(engine)) {}

  RenderedCase render(const RegressCase& c) override {
    Program& program = program_for(c);
    const StateRequest state = case_state_request(c);
    validate_state(program, state);
    ProgramFrame frame = render_program(program, state, c.background);
    if (!frame.outcome.clean) {
      throw InputError(
          program.source(), frame.outcome.end_offset,
          fmt::format("a run that ends cleanly; it stopped: {}", frame.outcome.reason));
    }
    RenderedCase out{std::move(frame.frame), std::move(frame.palette), {}};
    for (const auto& name : frame.missing_textures)
      out.warnings.push_back(
          fmt::format("texture {} not found; its faces are drawn without it", name));
    return out;
  }

 private:
  // The case's program, opened once while it stays among the most recently used: cases of one
  // file keep its interpreter (its decoded code, its x86 outcomes) from case to case, and a
  // manifest of thousands of files does not keep thousands of interpreters.
  Program& program_for(const RegressCase& c) {
    auto key = std::make_tuple(c.file, c.palette, c.textures);
    ++clock_;
    for (Kept& k : programs_)
      if (k.key == key) {
        k.used = clock_;
        return *k.program;
      }
    OpenOptions options{c.palette, c.textures, case_state_request(c)};
    std::unique_ptr<Program> program = open_program(c.file, options, engine_);
    if (programs_.size() >= kProgramsKept) {
      auto oldest = std::min_element(programs_.begin(), programs_.end(),
                                     [](const Kept& a, const Kept& b) { return a.used < b.used; });
      programs_.erase(oldest);
    }
    programs_.push_back({std::move(key), std::move(program), clock_});
    return *programs_.back().program;
  }

  static constexpr size_t kProgramsKept = 16;
  struct Kept {
    std::tuple<std::string, std::string, std::string> key;  // file, palette, textures
    std::unique_ptr<Program> program;
    uint64_t used = 0;  // clock_ at the last case that used it
  };
  std::string engine_;
  std::vector<Kept> programs_;
  uint64_t clock_ = 0;
};

}  // namespace

EngineRegistry registered_case_engines() {
  EngineRegistry out;
  for (const Engine* e : engines()) {
    std::string name(e->name());
    out.add(name, [name] { return std::make_unique<ProgramCaseRenderer>(name); });
  }
  return out;
}

}  // namespace shapevm::harness
