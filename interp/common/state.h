// The state a program runs in, as every command takes it (DESIGN.md, "Contracts"): the shared
// state options (--frame, --lod, --detail, --destroyed, --effects, --camera, the budgets, ...)
// and --set NAME=VALUE. Each engine declares, as data, which of them it takes and which names
// --set knows (its knobs); a command validates what it was given against those declarations
// before anything runs, so an unknown name is an error that lists the closest ones.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interp/common/work_limits.h"

namespace shapevm {

enum class KnobType : uint8_t { kInteger, kFlag, kText, kCamera };

// One thing a run's state can be given.
struct Knob {
  std::string name;  // option knobs: the option without "--" ("frame"); set knobs: the --set name
  bool option = false;  // a shared state option (--NAME) rather than a --set name
  KnobType type = KnobType::kInteger;
  int64_t min = INT64_MIN, max = INT64_MAX;  // integer range (inclusive)
  int64_t default_value = 0;                 // what the engine holds when nothing sets it
  std::string help;
  bool prefix = false;          // the name is a prefix: "record+" matches record+0x0E
  bool from_file = false;       // an input the program reads that the file itself names
  std::vector<int64_t> values;  // values the program compares it against, ascending (may be empty)
  // Where the original program keeps it (an engine global's address in the original executable):
  // --set takes the address (0x515EEE or 515EEEh) for the name.
  std::optional<uint32_t> address{};
};

// A shared state option the engine takes (Knob::option) and a --set name it knows.
Knob option_knob(std::string name, KnobType type, int64_t min, int64_t max, int64_t default_value,
                 std::string help);
Knob set_knob(std::string name, KnobType type, int64_t min, int64_t max, int64_t default_value,
              std::string help);

// One given value: an option's text ("3" for --frame 3, "1" for a flag) or a --set's.
struct Setting {
  std::string name;
  std::string value;
};

// Everything a command was told about the state, in the order given.
struct StateRequest {
  std::vector<Setting> options;   // the shared state options given on the command line
  std::vector<std::string> sets;  // --set NAME=VALUE, verbatim
  int width = 640;                // the frame the run draws into
  int height = 480;
  WorkLimits limits;              // --max-faces, --max-pixels, --max-trace-bytes

  // The last value given for an option, if any.
  std::optional<std::string> option(std::string_view name) const;
  bool flag(std::string_view name) const;                // a flag option given (and not "0")
  void set_option(std::string name, std::string value);  // replaces any earlier value
};

// The --set knob `name` means: by name, by prefix ("record+0x0E") or, when `name` is an address
// (0x515EEE or 515EEEh), the knob declared at that address. nullptr when none.
const Knob* find_set_knob(const std::vector<Knob>& knobs, std::string_view name);
// A name written as an address, 0x515EEE or 515EEEh (hex, at most 32 bits); nullopt for a name.
// Decimal is not an address: "5" stays a name.
std::optional<uint32_t> parse_address_name(std::string_view name);

// NAME=VALUE split; InputError ("--set TEXT", "expected NAME=VALUE") when malformed.
Setting split_assignment(const std::string& assignment);

// An integer in decimal, 0x hex or with a leading '-'; InputError naming `what` otherwise or when
// outside [min, max].
int64_t parse_integer(const std::string& text, const std::string& what, int64_t min = INT64_MIN,
                      int64_t max = INT64_MAX);

// `--camera`'s ranges. Distance 0 (or `fit`) asks the engine to choose it so the model fills the
// frame (interp/common/camera_fit.h); headings beyond a full turn and pitches at or past straight
// up/down (where the orbit's basis degenerates) are refused.
inline constexpr int kCameraMaxDistance = 1'000'000'000;
inline constexpr int kCameraMaxHeading = 360;
inline constexpr int kCameraMaxPitch = 89;

// `--camera distance,heading,pitch`, exactly three integers in their ranges, or `fit` (distance 0
// with the engine's default heading and pitch, `defaults[1]` and `defaults[2]`); `fit` may also
// stand for the distance alone (`fit,30,20`). InputError naming what is allowed otherwise.
std::array<int, 3> parse_camera_option(const std::string& text, std::array<int, 3> defaults);

// The names in `candidates` nearest to `name` (edit distance, case-insensitive), best first, at
// most `limit`.
std::vector<std::string> closest_names(std::string_view name,
                                       const std::vector<std::string>& candidates,
                                       size_t limit = 3);

}  // namespace shapevm
