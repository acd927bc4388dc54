// The benchmarks' main: Google Benchmark's own, after the allocator setting the shapevm program
// makes at start (core/allocator_tuning.h), so a benchmark's allocations behave as the tool's do.
#pragma once

#include <benchmark/benchmark.h>

#include "core/allocator_tuning.h"

#define SHAPEVM_BENCHMARK_MAIN()                                      \
  int main(int argc, char** argv) {                                   \
    shapevm::core::keep_freed_memory();                               \
    benchmark::Initialize(&argc, argv);                               \
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1; \
    benchmark::RunSpecifiedBenchmarks();                              \
    benchmark::Shutdown();                                            \
    return 0;                                                         \
  }
