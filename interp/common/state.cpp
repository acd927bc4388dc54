#include "interp/common/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <stdexcept>

#include "core/input_error.h"

namespace shapevm {

std::optional<std::string> StateRequest::option(std::string_view name) const {
  for (auto it = options.rbegin(); it != options.rend(); ++it)
    if (it->name == name) return it->value;
  return std::nullopt;
}

bool StateRequest::flag(std::string_view name) const {
  const auto v = option(name);
  return v && *v != "0" && *v != "false";
}

void StateRequest::set_option(std::string name, std::string value) {
  std::erase_if(options, [&](const Setting& s) { return s.name == name; });
  options.push_back({std::move(name), std::move(value)});
}

Knob option_knob(std::string name, KnobType type, int64_t min, int64_t max, int64_t default_value,
                 std::string help) {
  Knob k;
  k.name = std::move(name);
  k.option = true;
  k.type = type;
  k.min = min;
  k.max = max;
  k.default_value = default_value;
  k.help = std::move(help);
  return k;
}

Knob set_knob(std::string name, KnobType type, int64_t min, int64_t max, int64_t default_value,
              std::string help) {
  Knob k = option_knob(std::move(name), type, min, max, default_value, std::move(help));
  k.option = false;
  return k;
}

Setting split_assignment(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set " + assignment, "expected NAME=VALUE");
  return {assignment.substr(0, eq), assignment.substr(eq + 1)};
}

int64_t parse_integer(const std::string& text, const std::string& what, int64_t min, int64_t max) {
  int64_t value = 0;
  try {
    size_t used = 0;
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    value = hex ? static_cast<int64_t>(std::stoull(text.substr(2), &used, 16))
                : static_cast<int64_t>(std::stoll(text, &used, 10));
    if (hex) used += 2;
    if (used != text.size() || text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
      throw std::invalid_argument(text);
  } catch (const std::exception&) {
    throw InputError(what, fmt::format("expected an integer, got \"{}\"", text));
  }
  if (value < min || value > max)
    throw InputError(what, fmt::format("{} is outside {}..{}", value, min, max));
  return value;
}

std::array<int, 3> parse_camera_option(const std::string& text, std::array<int, 3> defaults) {
  // Strict: a forgotten or extra value is an error, never silently replaced by a default or
  // dropped (`400,150` used to keep the default pitch; a fourth value was ignored).
  const std::string what = "--camera " + text;
  const std::string allowed = fmt::format(
      "expected fit, or distance,heading,pitch: three integers, distance {}..{} (0 or fit: "
      "chosen so the model fills the frame), heading {}..{} and pitch {}..{} degrees",
      0, kCameraMaxDistance, -kCameraMaxHeading, kCameraMaxHeading, -kCameraMaxPitch,
      kCameraMaxPitch);
  if (text == "fit") return {0, defaults[1], defaults[2]};
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() != 3)
    throw InputError(what, fmt::format("{} value{} given; {}", parts.size(),
                                       parts.size() == 1 ? "" : "s", allowed));
  std::array<int, 3> values{};
  const char* names[] = {"distance", "heading", "pitch"};
  const int64_t lows[] = {0, -kCameraMaxHeading, -kCameraMaxPitch};
  const int64_t highs[] = {kCameraMaxDistance, kCameraMaxHeading, kCameraMaxPitch};
  for (size_t i = 0; i < 3; ++i) {
    if (i == 0 && parts[0] == "fit") {
      values[0] = 0;
      continue;
    }
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), v);
    if (parts[i].empty() || ec != std::errc() || end != parts[i].data() + parts[i].size())
      throw InputError(
          what, fmt::format("the {} \"{}\" is not an integer; {}", names[i], parts[i], allowed));
    if (v < lows[i] || v > highs[i])
      throw InputError(what, fmt::format("the {} {} is outside {}..{}; {}", names[i], v, lows[i],
                                         highs[i], allowed));
    values[i] = static_cast<int>(v);
  }
  return values;
}

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> closest_names(std::string_view name,
                                       const std::vector<std::string>& candidates, size_t limit) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : candidates) scored.emplace_back(edit_distance(name, c), c);
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [distance, c] : scored) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::optional<uint32_t> parse_address_name(std::string_view name) {
  std::string_view digits;
  if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
    digits = name.substr(2);
  } else if (name.size() > 1 && (name.back() == 'h' || name.back() == 'H') &&
             std::isdigit(static_cast<unsigned char>(name[0]))) {
    digits = name.substr(0, name.size() - 1);
  } else {
    return std::nullopt;
  }
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, 16);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return v;
}

const Knob* find_set_knob(const std::vector<Knob>& knobs, std::string_view name) {
  const auto address = parse_address_name(name);
  for (const Knob& k : knobs) {
    if (k.option) continue;
    if (address    ? k.address == address
        : k.prefix ? name.size() > k.name.size() && name.substr(0, k.name.size()) == k.name
                   : name == k.name)
      return &k;
  }
  return nullptr;
}

}  // namespace shapevm
