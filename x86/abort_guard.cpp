#include "x86/abort_guard.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <mutex>

namespace shapevm::x86 {

namespace {

// Where an abort on this thread returns to: the innermost guarded call, or nullptr.
thread_local sigjmp_buf* t_landing = nullptr;

struct sigaction g_previous;  // the SIGABRT disposition before the guard's, for other aborts
std::once_flag g_installed;

void on_abort(int signal, siginfo_t* info, void* context) {
  if (sigjmp_buf* landing = t_landing) {
    t_landing = nullptr;
    siglongjmp(*landing, 1);
  }
  // Not from a guarded call: whatever was installed before runs. With the default disposition,
  // returning lets abort() go on to end the process.
  if ((g_previous.sa_flags & SA_SIGINFO) != 0) {
    if (g_previous.sa_sigaction != nullptr) g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal);
  }
}

void install_handler() {
  struct sigaction action {};
  action.sa_sigaction = &on_abort;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &g_previous);
}

}  // namespace

bool call_surviving_abort(void (*fn)(void*), void* arg) {
  std::call_once(g_installed, install_handler);
  sigjmp_buf landing;
  sigjmp_buf* const outer = t_landing;
  // The signal mask is not saved (that is a system call on every guarded call); the one path
  // that needs it restored unblocks SIGABRT itself.
  if (sigsetjmp(landing, 0) != 0) {
    t_landing = outer;
    // The handler was left without returning, so SIGABRT is still blocked on this thread.
    sigset_t abort_only;
    sigemptyset(&abort_only);
    sigaddset(&abort_only, SIGABRT);
    pthread_sigmask(SIG_UNBLOCK, &abort_only, nullptr);
    return false;
  }
  t_landing = &landing;
  fn(arg);
  t_landing = outer;
  return true;
}

}  // namespace shapevm::x86
