// Ctrl-C in an interactive debugger session: while a SigintFlag lives, SIGINT only raises a flag
// (the debugger stops the running move at its next pause point, and a prompt drops the typed
// line) instead of ending the process. Scripts and pipes never install it: Ctrl-C ends them as
// before.
#pragma once

#include <csignal>

namespace shapevm::harness {

class SigintFlag {
 public:
  // Installs the handler, without SA_RESTART so that a read blocked at the prompt returns.
  SigintFlag();
  // Restores the handler that was installed before.
  ~SigintFlag();
  SigintFlag(const SigintFlag&) = delete;
  SigintFlag& operator=(const SigintFlag&) = delete;

  const volatile std::sig_atomic_t* flag() const;
  bool raised() const { return *flag() != 0; }
  void clear();

 private:
  struct sigaction previous_ {};
};

}  // namespace shapevm::harness
