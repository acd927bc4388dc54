// Sizes fixed by the PE format that both the container's reader (pe_image.cpp) and its writer
// (pe_writer.cpp) lay out by.
#pragma once

#include <cstdint>

namespace shapevm::fa::pe_layout {

inline constexpr uint32_t kSectionEntrySize = 40;      // one section table entry
inline constexpr uint32_t kImportDescriptorSize = 20;  // one IMAGE_IMPORT_DESCRIPTOR
// One import stub at CODE's end: FF 25 and the 32-bit address of its import slot (jmp [slot]).
inline constexpr uint32_t kStubSize = 6;

}  // namespace shapevm::fa::pe_layout
