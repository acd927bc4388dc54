// Keeps memory a process frees for its own reuse instead of handing it back to the kernel.
//
// glibc's malloc serves blocks of 128 KiB and more with mmap and returns them with munmap, and
// gives the top of the heap back once more than 128 KiB is free there. shapevm allocates a few
// such blocks per shape and per frame (a 640x480 frame is 300 KiB, an interpreter's pools and
// pre-decoded table a few hundred more), so a run over a corpus, or a benchmark loop, took the
// kernel's page faults again on every file: on a virtual machine a fault on a fresh page cost
// about 7 us, and a fresh 640x480 frame spent five sixths of its time in them. Raising both
// thresholds lets a freed frame's pages serve the next one. What is kept was already in use once,
// and each heap (one per worker thread) keeps at most its free top of 8 MiB beyond what it uses.
#pragma once

namespace shapevm::core {

// Sets the thresholds (once per process is enough; further calls are harmless). Returns false
// when the allocator ignores the settings, as a sanitizer's own allocator does: the process then
// runs exactly as before, only slower.
bool keep_freed_memory();

}  // namespace shapevm::core
