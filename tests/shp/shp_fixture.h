// Small Starlancer models for the tests, written in the text form (docs/shp.md) and assembled by
// the project's own assembler, plus a byte-level chunk builder for streams the text form cannot
// say (a chunk header cut short, a count past the end of the file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_writer.h"
#include "interp/shp/assembler.h"
#include "interp/shp/loader.h"
#include "interp/shp/model.h"

namespace shapevm::testing {

inline std::vector<uint8_t> shp_image(const std::string& body) {
  return shp::assemble_model("shp\n" + body, "test.shp");
}

inline shp::Model shp_load(const std::vector<uint8_t>& image) {
  return shp::load_model(image, "test.shp");
}

// One part with one level of a triangle, at the newest exporter's record sizes, every requested
// chunk present (zero-count where empty), no trigger polygons.
inline std::string triangle_model(const std::string& vertex_size = "32",
                                  const std::string& face_size = "80") {
  // A vertex record shorter than 32 bytes does not reach the counterpart at 0x1C.
  const std::string c = vertex_size == "32" ? " counterpart=-1" : "";
  return R"(chunk 00 header size=88
  header version=107 unread_04=1.5 flags=0x1
chunk 01 parts size=312
  part name="Hull" class=1 origin=10,20,30 parent=-1 flags=0x1002
chunk 02 levels size=4
  level distance=0
chunk 07 nodes size=72
chunk 09 attachments size=100
chunk 0A clips size=24
chunk 0D pointlists size=4
chunk 04 vertices size=)" +
         vertex_size + R"(
  vertex position=0,0,0 normal=0,0,-1 unread_18=1)" +
         c + R"(
  vertex position=100,0,0 normal=0,0,-1 unread_18=1)" +
         c + R"(
  vertex position=0,100,0 normal=0,0,-1 unread_18=1)" +
         c + R"(
chunk 03 faces size=)" +
         face_size + R"(
  face material=0 mode=3 vertices=0,1,2 u=0,1,0 v=0,0,1 normal=0,0,-1 unread_3c=7
chunk 06 materials size=64
  material texture="hull01"
chunk 10 arcs size=76
end
)";
}

// Raw chunk streams byte by byte.
class ChunkBytes {
 public:
  ChunkBytes& chunk(uint16_t tag, uint16_t size, uint16_t count, std::vector<uint8_t> body = {}) {
    put16(tag);
    put16(size);
    put16(count);
    if (body.empty()) body.assign(size_t{size} * count, 0);
    bytes.insert(bytes.end(), body.begin(), body.end());
    return *this;
  }
  ChunkBytes& end() {
    put16(0xFFFF);
    put16(0);
    put16(0);
    return *this;
  }
  void put16(uint16_t v) { append_u16(bytes, v); }
  std::vector<uint8_t> bytes;
};

}  // namespace shapevm::testing
