#include "interp/common/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "core/file_io.h"
#include "core/input_error.h"
#include "core/member_spec.h"
#include "core/partial_file.h"

namespace shapevm {

namespace {

struct Registry {
  std::vector<std::unique_ptr<Engine>> owned;
  std::vector<const Engine*> list;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

Registry& registry() {
  static Registry r = [] {
    Registry out;
    out.owned = make_registered_engines();
    for (const auto& e : out.owned) out.list.push_back(e.get());
    return out;
  }();
  return r;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string_view as_text(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The last bytes one engine alone recognised, held, and that engine. A batch over a container's
// members recognises the same container once per member, and recognising an Apache archive reads
// every record header (a third of `info 3DOBJS.BIN:*`). The bytes being held, storage at the
// same address with the same size is the same storage.
struct LastRecognised {
  std::mutex lock;
  SharedBytes bytes;
  const Engine* engine = nullptr;
};

LastRecognised& last_recognised() {
  static LastRecognised last;
  return last;
}

}  // namespace

const std::vector<const Engine*>& engines() {
  return registry().list;
}

void register_engine(std::unique_ptr<Engine> engine) {
  std::lock_guard lock(registry_mutex());
  Registry& r = registry();
  std::erase_if(r.list, [&](const Engine* e) { return e->name() == engine->name(); });
  r.list.push_back(engine.get());
  r.owned.push_back(std::move(engine));
  // What was recognised may be claimed by the new engine too.
  const std::lock_guard<std::mutex> held(last_recognised().lock);
  last_recognised().engine = nullptr;
  last_recognised().bytes = {};
}

const Engine* find_engine(std::string_view name) {
  for (const Engine* e : engines())
    if (e->name() == name) return e;
  return nullptr;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> out;
  for (const Engine* e : engines()) out.emplace_back(e->name());
  return out;
}

const Engine& engine_named(std::string_view name) {
  if (const Engine* e = find_engine(name)) return *e;
  throw InputError(
      "--engine " + std::string(name),
      fmt::format("no engine called \"{}\" (engines: {})", name, joined(engine_names())));
}

namespace {

// read_input for an argument already split.
EngineInput read_split_input(const std::string& spec, MemberSpec split) {
  SharedBytes bytes = read_file_shared(split.path);
  return {spec, std::move(split.path), std::move(split.member), std::move(bytes)};
}

// read_program_input for an argument already split.
EngineInput read_split_program_input(const std::string& spec, MemberSpec split,
                                     std::string_view forced, uint64_t partial_minimum) {
  if (!split.member || held_file_read(split.path)) return read_split_input(spec, std::move(split));
  PartialFile file(split.path);
  if (file.size() < partial_minimum) return read_split_input(spec, std::move(split));
  for (const Engine* e : engines()) {
    if (!forced.empty() && e->name() != forced) continue;
    if (!e->load_member_parts(file, *split.member)) continue;
    EngineInput in{spec, split.path, split.member, file.shared()};
    if (!forced.empty()) return in;
    // Every engine looks at the parts loaded, the others seeing zeros where nothing was: what they
    // claim must leave `e` alone, as the whole file does when it is e's container.
    try {
      if (&engine_for(in) == e) return in;
    } catch (const InputError&) {
      // No claim, or several: the whole file settles it below, and reports it if it stands.
    }
    break;
  }
  return read_split_input(spec, std::move(split));
}

}  // namespace

EngineInput read_input(const std::string& spec) {
  return read_split_input(spec, parse_member_spec(spec));
}

EngineInput read_program_input(const std::string& spec, std::string_view forced,
                               uint64_t partial_minimum) {
  return read_split_program_input(spec, parse_member_spec(spec), forced, partial_minimum);
}

namespace {

// read_program_input the first time a file is opened with a member in this process, read_input
// after. A run over many members of one container (a batch of FILE:MEMBER arguments, a regression
// manifest) then reads the file whole once, and the registry's memory of the bytes it last
// recognised holds that read for the members after; reading each in part would read the directory
// and the member recognition probes again for every one (`info` of the 440 members of the 58 MB
// generated HOG in one process: 0.08 s so, 1.2 s in part).
EngineInput read_opened_program_input(const std::string& spec, std::string_view forced) {
  static std::mutex lock;
  static std::set<std::string> opened_with_member;
  MemberSpec split = parse_member_spec(spec);
  if (split.member) {
    const std::lock_guard<std::mutex> held(lock);
    if (!opened_with_member.insert(split.path).second)
      return read_split_input(spec, std::move(split));
  }
  return read_split_program_input(spec, std::move(split), forced, kPartialReadMinimum);
}

// The engine that last recognised these very bytes (the same storage), or nullptr.
const Engine* recognised_before(const EngineInput& input) {
  LastRecognised& last = last_recognised();
  const std::lock_guard<std::mutex> held(last.lock);
  if (last.engine != nullptr && !input.bytes.empty() && last.bytes.data() == input.bytes.data() &&
      last.bytes.size() == input.bytes.size())
    return last.engine;
  return nullptr;
}

bool recognised_by_some_engine(const EngineInput& input) {
  if (recognised_before(input) != nullptr) return true;
  return std::any_of(engines().begin(), engines().end(),
                     [&](const Engine* e) { return e->recognises(input.bytes); });
}

}  // namespace

const Engine& engine_for(const EngineInput& input, std::string_view forced) {
  if (!forced.empty()) return engine_named(forced);
  if (const Engine* engine = recognised_before(input)) return *engine;
  LastRecognised& last = last_recognised();
  std::vector<const Engine*> claims;
  for (const Engine* e : engines())
    if (e->recognises(input.bytes)) claims.push_back(e);
  if (claims.size() == 1) {
    const std::lock_guard<std::mutex> held(last.lock);
    last.bytes = input.bytes;
    last.engine = claims[0];
    return *claims[0];
  }
  std::vector<std::string> names;
  for (const Engine* e : (claims.empty() ? engines() : claims)) {
    names.push_back(e->formats().empty()
                        ? fmt::format("{} ({})", e->name(), e->title())
                        : fmt::format("{} ({}: {})", e->name(), e->title(), e->formats()));
  }
  if (claims.empty()) {
    throw InputError(input.path, 0,
                     fmt::format("a file one engine recognises by its content; none does "
                                 "(engines: {}; --engine NAME forces one)",
                                 joined(names)));
  }
  throw InputError(input.path, 0,
                   fmt::format("a file one engine recognises; several do ({}); pass --engine NAME",
                               joined(names)));
}

const Engine& engine_for_text(std::string_view text, const std::string& source,
                              std::string_view forced) {
  if (!forced.empty()) return engine_named(forced);
  std::vector<const Engine*> claims;
  for (const Engine* e : engines())
    if (e->recognises_text(text)) claims.push_back(e);
  if (claims.size() == 1) return *claims[0];
  std::vector<std::string> names;
  for (const Engine* e : (claims.empty() ? engines() : claims)) names.emplace_back(e->name());
  throw InputError(source, 0,
                   fmt::format("{} engine's assembler text ({}); pass --engine NAME",
                               claims.empty() ? "one" : "only one", joined(names)));
}

std::unique_ptr<Program> open_program(const std::string& spec, const OpenOptions& options,
                                      std::string_view forced) {
  EngineInput input = read_opened_program_input(spec, forced);
  // Assembler text is opened as what it assembles to, so a manifest or a command can name an
  // example by its checked-in source ("vehicle.apa:tank" names a record of it).
  const std::string_view text = as_text(input.bytes);
  if (forced.empty()) {
    if (!recognised_by_some_engine(input)) {
      for (const Engine* e : engines())
        if (e->recognises_text(text))
          return engine_for_text(text, input.path)
              .open_text(text, input.path, input.member, options);
    }
  } else if (const Engine& e = engine_named(forced);
             !e.recognises(input.bytes) && e.recognises_text(text)) {
    return e.open_text(text, input.path, input.member, options);
  }
  return engine_for(input, forced).open(input, options);
}

void validate_state(const Program& program, const StateRequest& state) {
  // Nothing given, nothing to check: building the program's knobs was a twentieth of `info`'s time
  // over a corpus, where no state is given.
  if (state.options.empty() && state.sets.empty()) return;
  const std::vector<Knob> knobs = program.knobs();
  for (const Setting& s : state.options) {
    const auto knob = std::find_if(knobs.begin(), knobs.end(),
                                   [&](const Knob& k) { return k.option && k.name == s.name; });
    if (knob != knobs.end()) {
      // Checked here, before anything runs, so the message names the range the program takes.
      if (knob->type == KnobType::kInteger)
        parse_integer(s.value, "--" + s.name, knob->min, knob->max);
      continue;
    }
    std::vector<std::string> takers;
    for (const Engine* e : engines())
      for (const Knob& k : e->knobs())
        if (k.option && k.name == s.name) takers.emplace_back(e->name());
    throw InputError(
        "--" + s.name,
        fmt::format("the {} engine does not take this option ({}); engines that do: {}",
                    program.engine(), program.source(),
                    takers.empty() ? std::string("none") : joined(takers)));
  }
  std::vector<std::string> set_names;
  for (const Knob& k : knobs)
    if (!k.option) set_names.push_back(k.prefix ? k.name + "N" : k.name);
  for (const std::string& assignment : state.sets) {
    const Setting s = split_assignment(assignment);
    if (find_set_knob(knobs, s.name)) continue;
    if (const auto address = parse_address_name(s.name)) {
      std::vector<std::string> at;
      for (const Knob& k : knobs)
        if (!k.option && k.address) at.push_back(fmt::format("0x{:X} {}", *k.address, k.name));
      throw InputError(
          "--set " + assignment,
          fmt::format("{} knows no --set global at 0x{:X}{}", program.source(), *address,
                      at.empty() ? std::string(" (it names no global by address)")
                                 : fmt::format("; addresses it knows: {}", joined(at))));
    }
    const auto near = closest_names(s.name, set_names);
    throw InputError("--set " + assignment,
                     fmt::format("{} knows no \"{}\"{}", program.source(), s.name,
                                 near.empty() ? std::string(" (it takes no --set names)")
                                              : fmt::format("; closest: {}", joined(near))));
  }
}

}  // namespace shapevm
