#include "interp/common/engine.h"

#include <fmt/format.h>

#include "core/input_error.h"
#include "interp/common/variants.h"

namespace shapevm {

namespace {

[[noreturn]] void lacks(std::string_view engine, const std::string& where, std::string_view what) {
  throw InputError(where, fmt::format("the {} engine has no {}", engine, what));
}

}  // namespace

nlohmann::json Program::listing_json() const {
  lacks(engine(), source(), "JSON listing");
}

std::unique_ptr<Program> Engine::open_text(std::string_view, const std::string& source,
                                           const std::optional<std::string>&,
                                           const OpenOptions&) const {
  lacks(name(), source, "assembler");
}

std::vector<MemberInfo> Engine::members(const EngineInput& input) const {
  lacks(name(), input.path, "container format");
}

std::vector<uint8_t> Engine::extract(const EngineInput& input, const MemberInfo&) const {
  lacks(name(), input.path, "container format");
}

std::vector<OutputFile> Engine::assemble(std::string_view, const std::string& source,
                                         const std::string&) const {
  lacks(name(), source, "assembler");
}

std::vector<std::string> Engine::generated_names(const GenerateRequest&) const {
  lacks(name(), "gen", "generator");
}

void Engine::generate(const GenerateRequest&, const std::function<void(OutputFile)>&) const {
  lacks(name(), "gen", "generator");
}

CheckResult Engine::check(const EngineInput& input) const {
  lacks(name(), input.spec, "writer to check a file against");
}

VariantsReport Engine::variants(const VariantsRequest& request) const {
  lacks(name(), request.name, "whole-model variants");
}

std::vector<ExampleEntry> Engine::examples(const EngineInput& input) const {
  return {{input.spec, std::filesystem::path(input.path).stem().string()}};
}

}  // namespace shapevm
