// The target functions, defined in targets_*.cpp and listed in targets.cpp.
#pragma once

#include <cstdint>
#include <span>

namespace shapevm::fuzzing {

bool fuzz_fa_shape(std::span<const uint8_t> data);
bool fuzz_fa_run(std::span<const uint8_t> data);
bool fuzz_fa_lib(std::span<const uint8_t> data);
bool fuzz_fa_pic_pal(std::span<const uint8_t> data);
bool fuzz_apache_run(std::span<const uint8_t> data);
bool fuzz_apache_assets(std::span<const uint8_t> data);
bool fuzz_shp_run(std::span<const uint8_t> data);
bool fuzz_shp_files(std::span<const uint8_t> data);
bool fuzz_member_parts(std::span<const uint8_t> data);
bool fuzz_bi2_run(std::span<const uint8_t> data);
bool fuzz_bi2_lib(std::span<const uint8_t> data);
bool fuzz_png(std::span<const uint8_t> data);
bool fuzz_regress_manifest(std::span<const uint8_t> data);
bool fuzz_trace_reference(std::span<const uint8_t> data);
bool fuzz_assemblers(std::span<const uint8_t> data);
bool fuzz_dap(std::span<const uint8_t> data);

}  // namespace shapevm::fuzzing
