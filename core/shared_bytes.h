// An immutable run of bytes several holders share without copying: a whole input file, which a
// batch over a container's members would otherwise read and copy once per member.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace shapevm {

class SharedBytes {
 public:
  SharedBytes() = default;
  // Takes the vector's bytes (implicit: an engine's own builders hand over vectors).
  SharedBytes(std::vector<uint8_t> bytes) {  // NOLINT(google-explicit-constructor)
    auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
    view_ = std::span<const uint8_t>(owned->data(), owned->size());
    owner_ = std::move(owned);
  }
  // `view` kept valid by `owner`.
  SharedBytes(std::shared_ptr<const void> owner, std::span<const uint8_t> view)
      : owner_(std::move(owner)), view_(view) {}

  const uint8_t* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  const uint8_t* begin() const { return view_.data(); }
  const uint8_t* end() const { return view_.data() + view_.size(); }
  uint8_t operator[](size_t i) const { return view_[i]; }
  std::span<const uint8_t> span() const { return view_; }
  operator std::span<const uint8_t>() const { return view_; }  // NOLINT
  // A copy, for a holder that must own or change its bytes.
  std::vector<uint8_t> to_vector() const { return {view_.begin(), view_.end()}; }
  // Equal bytes (wherever they are stored).
  friend bool operator==(const SharedBytes& a, const SharedBytes& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const SharedBytes& a, const std::vector<uint8_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  // Whether the two share their storage (the same read of a file).
  bool same_storage(const SharedBytes& other) const {
    return owner_ == other.owner_ && view_.data() == other.view_.data();
  }

 private:
  std::shared_ptr<const void> owner_;
  std::span<const uint8_t> view_;
};

}  // namespace shapevm
