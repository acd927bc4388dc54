#include "interp/bi2/session.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/input_error.h"
#include "interp/bi2/assumptions.h"
#include "interp/bi2/palette.h"
#include "interp/bi2/tpwm.h"

namespace shapevm::bi2 {
namespace {

std::string beside(const std::string& file, const char* name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(file).parent_path();
  std::string lower = name;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const std::string& candidate : {std::string(name), lower}) {
    std::error_code ec;
    const fs::path p = dir / candidate;
    if (fs::is_regular_file(p, ec) && !fs::equivalent(p, fs::path(file), ec)) return p.string();
  }
  return "";
}

}  // namespace

std::string member_kind(std::span<const uint8_t> b) {
  if (is_mesh(b)) return "3DOB";
  if (is_layer(b)) return "3DLD";
  if (b.size() == static_cast<size_t>(assumed::kPaletteBytes)) return "palette";
  return "data";
}

Session::Session(std::string path, SharedBytes bytes, std::optional<std::string> member,
                 const std::string& palette, const std::string& objects)
    : path_(std::move(path)), source_(path_), file_(std::move(bytes)), objects_arg_(objects) {
  whole_ = tpwm_decode(file_, path_);
  packed_ = whole_.size() != file_.size() || is_tpwm(file_) || is_tpwm_xor(file_);
  if (is_mesh(whole_) || is_layer(whole_)) {
    if (member)
      throw InputError(path_ + ":" + *member,
                       fmt::format("{} is a lone {} file, not a LIB archive: name no member", path_,
                                   member_kind(whole_)));
    data_ = whole_;
  } else {
    archive_.emplace(whole_, path_);
    if (!member) {
      kind_ = Kind::kArchive;
      palette_ = load_fight_palette(palette);
      return;
    }
    const LibMember& m = archive_->find(*member);
    source_ = archive_->member_source(m);
    // A member named by number keeps "#N" in its source, as given.
    if ((*member)[0] == '#') source_ = fmt::format("{}:#{}", path_, m.index);
    const auto stored = archive_->stored(m);
    packed_ = is_tpwm(stored) || is_tpwm_xor(stored);
    data_ = tpwm_decode(stored, source_);
  }
  if (is_mesh(data_)) {
    kind_ = Kind::kMesh;
    mesh_ = read_mesh(data_, source_);
  } else if (is_layer(data_)) {
    kind_ = Kind::kLayer;
    layer_ = read_layer(data_, source_);
  } else {
    kind_ = Kind::kData;
  }
  palette_ = load_fight_palette(palette);
}

const std::vector<Instance>& Session::instances() const {
  if (!loaded_) {
    if (kind_ == Kind::kMesh) instances_.push_back({&mesh_, {0, 0, 0}, -1, 0});
    if (kind_ == Kind::kLayer) load_objects();
    if (kind_ == Kind::kArchive || kind_ == Kind::kData)
      throw InputError(source_, kind_ == Kind::kArchive
                                    ? "names a whole LIB: name a member (FILE:NAME or FILE:#N)"
                                    : "is neither a 3DOB mesh nor a 3DLD record: nothing to draw");
    loaded_ = true;
  }
  return instances_;
}

void Session::load_objects() const {
  // The terrain archive: --objects, else LAND000.LIB beside, else the record's own archive.
  std::string from = objects_arg_;
  if (from.empty()) from = beside(path_, "LAND000.LIB");
  std::optional<LibArchive> lib;
  if (!from.empty()) {
    objects_bytes_ = tpwm_decode(read_file(from), from);
    lib.emplace(objects_bytes_, from);
    objects_source_ = from;
  } else if (archive_) {
    lib.emplace(whole_, path_);
    objects_source_ = path_ + " (the record's own archive)";
  } else {
    throw InputError(source_,
                     "a lone 3DLD record: give its terrain archive with --objects "
                     "LAND000.LIB");
  }
  objects_.resize(lib->members().size());
  for (size_t i = 0; i < layer_.placements.size(); ++i) {
    const Placement& p = layer_.placements[i];
    const uint16_t id = layer_.object_ids[p.slot];
    if (unused_object(id)) continue;
    if (id >= lib->members().size()) {
      throw InputError(
          source_, 4 + 2 * size_t{p.slot},
          fmt::format("expected object id {} (placement {}, slot {}) below the {} members of "
                      "{}",
                      id, i, p.slot, lib->members().size(), from.empty() ? path_ : from));
    }
    if (!objects_[id]) {
      const LibMember& m = lib->members()[id];
      const std::vector<uint8_t> bytes = lib->decoded(m);
      objects_[id] = std::make_unique<Mesh>(read_mesh(bytes, lib->member_source(m)));
    }
    instances_.push_back({objects_[id].get(), {p.x, 0, p.z}, static_cast<int32_t>(i), id});
  }
}

}  // namespace shapevm::bi2
