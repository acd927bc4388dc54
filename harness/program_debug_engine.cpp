#include "harness/program_debug_engine.h"

#include "interp/common/json_text.h"
#include "interp/common/registry.h"

namespace shapevm::harness {

ProgramDebugEngine::ProgramDebugEngine(std::unique_ptr<Program> program, StateRequest state)
    : program_(std::move(program)), state_(std::move(state)) {
  validate_state(*program_, state_);
  (void)program_->state_json(state_);  // reject bad values now, not at the first run
  listing_ = program_->listing_lines();
  setup_ = program_->render_setup(state_.width, state_.height);
}

namespace {

// Passes every pause on, and keeps the vocabulary the first one declares.
class VocabularyTap : public PauseHandler {
 public:
  VocabularyTap(PauseHandler& next, std::optional<DebugVocabulary>& vocabulary)
      : next_(next), vocabulary_(vocabulary) {}
  bool pause(const PausePoint& point) override {
    if (!vocabulary_) vocabulary_ = point.vocabulary();
    return next_.pause(point);
  }

 private:
  PauseHandler& next_;
  std::optional<DebugVocabulary>& vocabulary_;
};

}  // namespace

void ProgramDebugEngine::run(EventSink& sink, PauseHandler& pause) {
  if (vocabulary_) {
    program_->run(state_, sink, &pause);
    return;
  }
  VocabularyTap tap(pause, vocabulary_);
  program_->run(state_, sink, &tap);
}

DebugVocabulary ProgramDebugEngine::vocabulary() {
  if (!vocabulary_) vocabulary_ = DebugEngine::vocabulary();
  return *vocabulary_;
}

void ProgramDebugEngine::set(const std::string& assignment) {
  StateRequest next = state_;
  next.sets.push_back(assignment);
  validate_state(*program_, next);  // InputError when unknown or malformed; nothing changes
  (void)program_->state_json(next);
  state_ = std::move(next);
}

std::string ProgramDebugEngine::describe_state() const {
  return dump_json(program_->state_json(state_), -1, /*ascii=*/true);
}

}  // namespace shapevm::harness
