// Shadows as the seed describes them (AP-31..AP-33): every vertex is projected along the sun
// direction onto a horizontal plane (the terrain height under the model, or the cloud layer when
// the model is above it; a receiver with property bit 1 raises the plane to its authored height
// when the shadow falls inside its rotated bounds). Most faces become a fine black mesh, glass a
// medium mesh; points, lines and heat haze cast nothing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "interp/apache/archive.h"
#include "interp/apache/packets.h"

namespace shapevm::apache {

enum class ShadowStyle : uint8_t { kNone, kFineMesh, kMediumMesh };
ShadowStyle shadow_style(const PacketType& type);

// `point` moved along `sun` (toward the sun) onto y = plane_y. nullopt when the sun is not above
// the horizon (sun.y <= 0).
std::optional<std::array<int64_t, 3>> project_onto_plane(const std::array<int64_t, 3>& point,
                                                         const std::array<int32_t, 3>& sun,
                                                         int64_t plane_y);

// Models 0x4ba and 0x4bb cast their shadow with model 0x40a's geometry (its face program and
// attachments); the seed names these three in the reference archive. Model IDs are record indices
// (assumptions.h). nullopt for every other record.
inline constexpr uint32_t kSharedShadowGeometry = 0x40a;
std::optional<uint32_t> shadow_geometry_record(uint32_t record);

// The receiver rule: when `receiver` has property bit 1 and (x, z) lies inside its X/Z bounds
// rotated by `heading` degrees about y, the plane is raised to its height (header 0x28).
std::optional<int32_t> receiver_plane(const ModelHeader& receiver, int heading, int64_t x,
                                      int64_t z);

}  // namespace shapevm::apache
