#include "harness/sigint_flag.h"

#include <stdexcept>

namespace shapevm::harness {

namespace {

// One process, one SIGINT: the handler can only reach static storage.
volatile std::sig_atomic_t g_sigint = 0;

void on_sigint(int) {
  g_sigint = 1;
}

}  // namespace

SigintFlag::SigintFlag() {
  g_sigint = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  if (sigaction(SIGINT, &action, &previous_) != 0)
    throw std::runtime_error("cannot install the SIGINT handler");
}

SigintFlag::~SigintFlag() {
  sigaction(SIGINT, &previous_, nullptr);
}

const volatile std::sig_atomic_t* SigintFlag::flag() const {
  return &g_sigint;
}

void SigintFlag::clear() {
  g_sigint = 0;
}

}  // namespace shapevm::harness
