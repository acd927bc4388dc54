#include "harness/program_debug_engine.h"

#include "interp/common/registry.h"

namespace shapevm::harness {

ProgramDebugEngine::ProgramDebugEngine(std::unique_ptr<Program> program, StateRequest state)
    : program_(std::move(program)), state_(std::move(state)) {
  validate_state(*program_, state_);
  (void)program_->state_json(state_);  // reject bad values now, not at the first run
  listing_ = program_->listing_lines();
  setup_ = program_->render_setup(state_.width, state_.height);
}

void ProgramDebugEngine::run(EventSink& sink, PauseHandler& pause) {
  program_->run(state_, sink, &pause);
}

void ProgramDebugEngine::set(const std::string& assignment) {
  StateRequest next = state_;
  next.sets.push_back(assignment);
  validate_state(*program_, next);  // InputError when unknown or malformed; nothing changes
  (void)program_->state_json(next);
  state_ = std::move(next);
}

std::string ProgramDebugEngine::describe_state() const {
  return program_->state_json(state_).dump();
}

}  // namespace shapevm::harness
