#include "interp/fa/opcodes.h"

#include <algorithm>

namespace shapevm::fa {
namespace {

using K = Knowledge;
using O = Origin;
using R = SizeRule;

// Sizes and names: seed 000 instruction tables. Handler names/addresses: seed 000 Engine Notes
// (FA.SMS). Knowledge: kTraced where the seed specifies runtime behaviour.
constexpr OpcodeInfo kTable[] = {
    // op, mnemonic, handler, address, rule, fixed size, word-magic, knowledge, origin
    {0x00, "EndObject", "", 0, R::kToEnd, 1, false, K::kTraced, O::kCorpus},
    {0x01, "EndShape", "", 0, R::kToEnd, 1, false, K::kTraced, O::kCorpus},
    {0x06, "OrderPlane", "sh_op_06", 0x4D2450, R::kPlane06, 16, true, K::kTraced, O::kCorpus},
    {0x08, "Unk08", "", 0, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0x0C, "OrderPlaneYZ", "sh_op_0C", 0, R::kPlaneShort, 12, true, K::kTraced, O::kCorpus},
    {0x0E, "OrderPlaneXZ", "sh_op_0E", 0, R::kPlaneShort, 12, true, K::kTraced, O::kCorpus},
    {0x10, "OrderPlaneXY", "sh_op_10", 0, R::kPlaneShort, 12, true, K::kTraced, O::kCorpus},
    {0x12, "Unmask", "do_unmask", 0x4D2278, R::kFixed, 4, true, K::kTraced, O::kCorpus},
    {0x14, "IfNotEffect14", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0x16, "IfNotEffect16", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0x1E, "ShortEOF", "do_short_eof", 0x4D17F4, R::kShortEof, 1, false, K::kTraced, O::kCorpus},
    {0x2E, "Unk2E", "", 0, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0x34, "Nop34", "do_nop", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0x36, "PmapOrTmap36", "do_new_pmap_or_tmap", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kEngineOnly},
    {0x38, "ShortJump", "do_short_ijmp", 0x4D30E4, R::kFixed, 3, false, K::kTraced, O::kCorpus},
    {0x3A, "Unk3A", "", 0, R::kFixed, 6, true, K::kUntraced, O::kCorpus},
    {0x3C, "IfNotEffect3C", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0x3E, "PmapOrTmap3E", "do_new_pmap_or_tmap", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kEngineOnly},
    {0x40, "JumpToFrame", "do_anim_jmp", 0x4D3134, R::kFrameTable, 4, true, K::kTraced, O::kCorpus},
    {0x42, "SourceName", "do_shape_name", 0x4D17BC, R::kSourceName, 3, true, K::kTraced,
     O::kCorpus},
    {0x44, "Unk44", "do_setcoarse", 0x4D42EC, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0x46, "Unk46", "do_force_no_pmap", 0x4D478C, R::kFixed, 2, true, K::kUntraced, O::kCorpus},
    {0x48, "Jump", "", 0x4D30E5, R::kFixed, 4, true, K::kTraced, O::kCorpus},
    {0x4E, "Unk4E", "", 0, R::kFixed, 2, true, K::kUntraced, O::kCorpus},
    {0x50, "LongJump", "do_ijmp_long", 0x4D3100, R::kFixed, 6, true, K::kTraced, O::kCorpus},
    {0x5C, "SetColor2", "do_setcolor2", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0x66, "Unk66", "", 0, R::kFixed, 10, true, K::kUntraced, O::kCorpus},
    {0x68, "Unk68", "", 0, R::kFixed, 8, true, K::kUntraced, O::kCorpus},
    {0x6C, "OrderField", "sh_op_6C", 0x4D23AC, R::kOrderField, 13, true, K::kTraced, O::kCorpus},
    {0x6E, "UnmaskLong", "do_sfcal_long", 0x4D22A8, R::kFixed, 6, true, K::kTraced, O::kCorpus},
    {0x72, "Unk72", "", 0, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0x76, "Unk76", "", 0, R::kFixed, 10, true, K::kUntraced, O::kCorpus},
    {0x78, "BBoxCull", "", 0, R::kFixed, 12, true, K::kUntraced, O::kCorpus},
    {0x7A, "Unk7A", "", 0, R::kFixed, 10, true, K::kUntraced, O::kCorpus},
    {0x82, "VertexBuffer", "", 0, R::kVertexBuffer, 6, true, K::kTraced, O::kCorpus},
    {0x96, "Unk96", "", 0, R::kFixed, 6, true, K::kUntraced, O::kCorpus},
    {0xA6, "JumpToDetail", "", 0x4D2318, R::kFixed, 6, true, K::kTraced, O::kCorpus},
    {0xA8, "IfNotEffectA8", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0xAA, "IfNotEffectAA", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0xAC, "JumpToDamage", "do_ifdestroyed", 0x4D22D4, R::kFixed, 4, true, K::kTraced, O::kCorpus},
    {0xB2, "UnkB2", "do_use_terrain_detail", 0x4D2344, R::kFixed, 2, true, K::kUntraced,
     O::kCorpus},
    {0xB8, "UnkB8", "do_no_overlap", 0x4D22FC, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0xBC, "UnkBC", "", 0, R::kFixed, 2, false, K::kUntraced, O::kCorpus},
    {0xC0, "IfNotEffectC0", "do_if_not_effect", 0, R::kUnknown, 0, true, K::kUntraced,
     O::kIfNotEffect},
    {0xC4, "XformUnmask", "", 0, R::kFixed, 16, true, K::kPartial, O::kCorpus},
    {0xC6, "XformUnmaskLong", "do_icall_long", 0x4D33D8, R::kFixed, 18, true, K::kPartial,
     O::kCorpus},
    {0xC8, "JumpToLOD", "do_jumpfar4", 0x4D416C, R::kFixed, 8, true, K::kTraced, O::kCorpus},
    {0xCA, "UnkCA", "", 0, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0xCE, "UnkCE", "do_streamer_def", 0x4D47A4, R::kFixed, 40, true, K::kUntraced, O::kCorpus},
    {0xD0, "UnkD0", "do_streamer_draw", 0x4D47B8, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0xD2, "UnkD2", "do_screen_coords", 0x4D4894, R::kFixed, 8, true, K::kUntraced, O::kCorpus},
    {0xDA, "UnkDA", "do_setlight", 0x4D42C8, R::kFixed, 4, true, K::kUntraced, O::kCorpus},
    {0xDC, "UnkDC", "", 0, R::kFixed, 12, true, K::kUntraced, O::kCorpus},
    {0xE0, "TextureIndex", "", 0, R::kFixed, 4, true, K::kTraced, O::kCorpus},
    {0xE2, "TextureFile", "", 0, R::kFixed, 16, true, K::kTraced, O::kCorpus},
    {0xE4, "UnkE4", "do_brush_area", 0x4D4A47, R::kFixed, 20, true, K::kUntraced, O::kCorpus},
    {0xE6, "UnkE6", "do_brush_area_full", 0x4D4A6D, R::kFixed, 10, true, K::kUntraced, O::kCorpus},
    {0xE8, "UnkE8", "do_new_smap", 0x4D5475, R::kFixed, 6, true, K::kUntraced, O::kCorpus},
    {0xEA, "UnkEA", "do_new_rmap", 0x4D5644, R::kFixed, 8, true, K::kUntraced, O::kCorpus},
    {0xEC, "BrushSolid", "do_brush_solid", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0xEE, "UnkEE", "do_brush_trans", 0x4D4A30, R::kFixed, 2, true, K::kUntraced, O::kCorpus},
    {0xF0, "X86Code", "do_start_asm", 0x4D4254, R::kX86, 2, false, K::kTraced, O::kCorpus},
    {0xF2, "PtrToObjEnd", "do_collision_info", 0x4D4258, R::kFixed, 4, true, K::kTraced,
     O::kCorpus},
    {0xF4, "SetGouraud", "do_set_gouraud", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0xF6, "VertexInfo", "do_set_point_color", 0x4D4308, R::kFixed, 7, false, K::kTraced,
     O::kCorpus},
    {0xF8, "DrawObj000", "do_drawobj000", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0xFA, "FullPntG16", "do_fullpntg16", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0xFC, "Face", "do_new_poly", 0x4D43DC, R::kFace, 6, false, K::kTraced, O::kCorpus},
    {0xFE, "Nt", "do_nt", 0, R::kUnknown, 0, true, K::kUntraced, O::kEngineOnly},
    {0xFF, "Header", "", 0, R::kHeader, 14, false, K::kTraced, O::kCorpus},
};

struct Index {
  std::array<const OpcodeInfo*, 256> by_op{};
  constexpr Index() {
    for (const auto& e : kTable) by_op[e.op] = &e;
  }
};
constexpr Index kIndex;

static_assert(std::is_sorted(std::begin(kTable), std::end(kTable),
                             [](const OpcodeInfo& a, const OpcodeInfo& b) { return a.op < b.op; }));

}  // namespace

constinit const std::array<const OpcodeInfo*, 256> detail::kOpcodeOfByte = kIndex.by_op;

std::span<const OpcodeInfo> all_opcodes() {
  return kTable;
}

}  // namespace shapevm::fa
