// A shared library opened when it is first needed (dlopen) rather than when the program starts.
// shapevm's heavy dependencies (Unicorn, Capstone, SDL2 with its window-system and audio chain)
// cost more start-up time than most commands take: loaded at start, they made `--version` take
// ~30 ms. Only the commands and inputs that use them now pay for them.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

// "STEM.so.MAJOR" from a header's major-version macro, so the library loaded at run time is the
// one whose headers shapevm was compiled against: SHAPEVM_VERSIONED_SONAME("libunicorn",
// UC_API_MAJOR).
#define SHAPEVM_VERSIONED_SONAME(stem, major) stem ".so." SHAPEVM_STRINGIFY_VALUE(major)
#define SHAPEVM_STRINGIFY_VALUE(x) SHAPEVM_STRINGIFY(x)
#define SHAPEVM_STRINGIFY(x) #x

// For a table of a library's functions listed by an X-macro: one field per function, typed as the
// function's own declaration (so a call through it is checked like a call to the function)...
#define SHAPEVM_FUNCTION_FIELD(name) decltype(&::name) name = nullptr;
// ...and its resolution from a SharedLibrary called `library` into a table called `table`.
#define SHAPEVM_RESOLVE_FUNCTION_FIELD(name) \
  table.name = library.function<decltype(&::name)>(#name);
// ...or, for a library linked into the program, the initializer of such a table: {X(LINKED)}.
#define SHAPEVM_LINKED_FUNCTION_FIELD(name) &::name,

namespace shapevm::core {

class SharedLibrary {
 public:
  // Opens the first of `sonames` that loads. Throws InputError (exit 2: the machine lacks a
  // library) naming `purpose`, each soname tried and the loader's own reason when none does. The
  // library stays loaded for the rest of the process (its functions may be called from anywhere
  // once resolved).
  static SharedLibrary open(std::initializer_list<const char*> sonames, std::string_view purpose);

  // The address of `name`; throws std::runtime_error naming the library and the symbol when it is
  // absent (a library of an incompatible version).
  void* symbol(const char* name) const;

  // `symbol` as a function pointer of the caller's declared type (decltype(&::the_function)).
  template <typename Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(symbol(name));
  }

  const std::string& soname() const { return soname_; }

 private:
  SharedLibrary(void* handle, std::string soname) : handle_(handle), soname_(std::move(soname)) {}
  void* handle_;
  std::string soname_;
};

}  // namespace shapevm::core
