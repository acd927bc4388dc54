# The libraries every command loads: linked into the programs, or loaded as shared libraries.
#
# Each shared library a process loads costs it page faults and relocations before main(); on a
# virtual machine a page fault costs several microseconds. Researchers run shapevm over thousands of
# files from shell loops, where that start-up is most of the cost. With SHAPEVM_STATIC_RUNTIME the
# `shapevm` program carries libstdc++, libgcc, fmt, libpng, libdeflate and zlib itself and loads only
# glibc (Unicorn, SDL2 and libedit are opened on first use either way: core/shared_library.h).
# zlib was once kept shared because Debian's shared zlib deflates about 15% faster than its static
# archive, when PNGs were written through libpng. PNGs are now written with libdeflate
# (raster/png_fast_write.h) and zlib only inflates the captures the fast reader declines, while
# loading it cost every process a dozen page faults, each about 10 us on a virtual machine.
# Every library stays an installed Debian package: the static archives come with the -dev packages,
# and fmt (libfmt-dev ships no archive) is compiled from its own headers by core/fmt/implementation.cpp.
#
# Defines shapevm_fmt, shapevm_png and shapevm_deflate for the targets to link,
# shapevm_link_runtime_statically(TARGET) for the programs, SHAPEVM_CAPSTONE_LINKED and
# SHAPEVM_UNICORN_LINKED when Capstone and Unicorn are linked in (x86/CMakeLists.txt), and SHAPEVM_RUNTIME_ALL_STATIC when every one of those
# libraries is linked in (the tests then check that shapevm loads none of them).
option(SHAPEVM_STATIC_RUNTIME "Link libstdc++, fmt, libpng, libdeflate, zlib, Capstone and Unicorn into shapevm" ON)
if(SHAPEVM_SANITIZE OR SHAPEVM_FUZZ)
  # The sanitizers' runtimes replace operator new and friends from a shared library; keep every
  # library shared so they see all of it.
  set(SHAPEVM_STATIC_RUNTIME OFF)
endif()

set(shapevm_static_archives_found OFF)
if(SHAPEVM_STATIC_RUNTIME)
  find_library(SHAPEVM_PNG_ARCHIVE NAMES libpng16.a libpng.a)
  find_library(SHAPEVM_LIBDEFLATE_ARCHIVE NAMES libdeflate.a HINTS ${LIBDEFLATE_LIBRARY_DIRS})
  find_library(SHAPEVM_ZLIB_ARCHIVE NAMES libz.a)
  if(SHAPEVM_PNG_ARCHIVE AND SHAPEVM_LIBDEFLATE_ARCHIVE AND SHAPEVM_ZLIB_ARCHIVE)
    set(shapevm_static_archives_found ON)
  else()
    message(STATUS "shapevm: static archives of libpng, libdeflate or zlib not found; linking them shared")
  endif()
endif()

add_library(shapevm_png INTERFACE)
add_library(shapevm_deflate INTERFACE)
if(shapevm_static_archives_found)
  target_include_directories(shapevm_png SYSTEM INTERFACE ${PNG_INCLUDE_DIRS})
  # libpng and the FA code call frexp, ldexp and modf, which both the C library and libm define:
  # bound to libm, they alone would have it loaded at start (the math library, below). So the C
  # library itself is named before libm: its file, since gold read the definitions behind `-lc`
  # (a linker script naming libc.so.6) only after libm's.
  target_link_libraries(shapevm_png INTERFACE ${SHAPEVM_PNG_ARCHIVE} ${SHAPEVM_ZLIB_ARCHIVE}
                        -l:libc.so.6 m)
  target_include_directories(shapevm_deflate SYSTEM INTERFACE ${LIBDEFLATE_INCLUDE_DIRS})
  target_link_libraries(shapevm_deflate INTERFACE ${SHAPEVM_LIBDEFLATE_ARCHIVE})
else()
  target_link_libraries(shapevm_png INTERFACE PNG::PNG)
  target_link_libraries(shapevm_deflate INTERFACE PkgConfig::LIBDEFLATE)
endif()

# The functions short commands run, placed together. A process maps the program's code a few pages
# at a time as it first runs them, and on a virtual machine each such page fault costs about 10 us;
# the functions `--version` and `info` run were spread over some 40 chunks of the 16 MB of code,
# among functions they never run. Each function is compiled into a section of its own
# (-ffunction-sections) and the gold linker, which comes with binutils, places the sections
# cmake/startup_order.txt names together, in its order (cmake/startup_order.py writes that list from
# the functions Valgrind sees those commands run). A function the list does not name keeps its
# usual place. Set before any library of the program is defined, fmt's below included.
set(SHAPEVM_STARTUP_ORDERED OFF)
if(SHAPEVM_STATIC_RUNTIME)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=gold" SHAPEVM_GOLD_LINKER)
  if(SHAPEVM_GOLD_LINKER)
    set(SHAPEVM_STARTUP_ORDERED ON)
    add_compile_options(-ffunction-sections)
  else()
    message(STATUS "shapevm: the gold linker is not available; the start-up functions keep their places")
  endif()
endif()

# fmt's out-of-line functions, compiled here from format-inl.h. The list of explicit instantiations
# in core/fmt/implementation.cpp is fmt 9's; any other version links the shared library.
set(shapevm_fmt_linked OFF)
if(SHAPEVM_STATIC_RUNTIME AND fmt_VERSION VERSION_GREATER_EQUAL 9 AND fmt_VERSION VERSION_LESS 10)
  set(shapevm_fmt_linked ON)
  add_library(shapevm_fmt STATIC ${PROJECT_SOURCE_DIR}/core/fmt/implementation.cpp)
  # The same include directories and definitions as the installed fmt::fmt target, so every source
  # compiles exactly as it would against the shared library.
  target_include_directories(shapevm_fmt SYSTEM PUBLIC $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(shapevm_fmt PUBLIC $<TARGET_PROPERTY:fmt::fmt,INTERFACE_COMPILE_DEFINITIONS>)
else()
  if(SHAPEVM_STATIC_RUNTIME)
    message(STATUS "shapevm: fmt ${fmt_VERSION} is not 9.x; linking it shared")
  endif()
  add_library(shapevm_fmt INTERFACE)
  target_link_libraries(shapevm_fmt INTERFACE fmt::fmt)
endif()

# Capstone too, when its archive is there. Built for every architecture it knows, its tables carry
# some 77,000 relocations: opened as a shared library (or linked into a position-independent
# program) the loader patches them on every start, about 8 ms and several hundred page faults
# before an x86 shape's `info` could begin, as long as all the rest of it. Linked into a program
# at a fixed address, the linker resolves them once and a run touches only the pages it reads. So
# with the static runtime `shapevm` is linked without -pie (glibc's loader still places the
# libraries it opens at random addresses).
set(SHAPEVM_CAPSTONE_LINKED OFF)
if(SHAPEVM_STATIC_RUNTIME)
  find_library(SHAPEVM_CAPSTONE_ARCHIVE NAMES libcapstone.a HINTS ${CAPSTONE_LIBRARY_DIRS})
  if(SHAPEVM_CAPSTONE_ARCHIVE)
    set(SHAPEVM_CAPSTONE_LINKED ON)
  else()
    message(STATUS "shapevm: libcapstone.a not found; Capstone is opened as a shared library")
  endif()
endif()

# Unicorn likewise. Its shared library is linked with BIND_NOW and resolves some 22,000 relocations
# when opened, 15 ms or more of the 50 ms that rendering one x86 shape took in its own process.
# Linked in, the linker resolves them once; the archive has no constructors, so commands that run
# no x86 pay nothing for it. The archive defines a function named crc32 of its own (QEMU's), which
# would replace zlib's: the program links a copy of the archive, made in the build folder, in
# which that one symbol is renamed (objcopy --redefine-sym), definition and callers alike.
set(SHAPEVM_UNICORN_LINKED OFF)
if(SHAPEVM_STATIC_RUNTIME)
  find_library(SHAPEVM_UNICORN_ARCHIVE NAMES libunicorn.a HINTS ${UNICORN_LIBRARY_DIRS})
  if(SHAPEVM_UNICORN_ARCHIVE AND CMAKE_OBJCOPY)
    set(SHAPEVM_UNICORN_LINKED ON)
    set(SHAPEVM_UNICORN_RENAMED_ARCHIVE ${CMAKE_BINARY_DIR}/libunicorn-crc32-renamed.a)
    add_custom_command(
      OUTPUT ${SHAPEVM_UNICORN_RENAMED_ARCHIVE}
      COMMAND ${CMAKE_OBJCOPY} --redefine-sym crc32=shapevm_unicorn_crc32
              ${SHAPEVM_UNICORN_ARCHIVE} ${SHAPEVM_UNICORN_RENAMED_ARCHIVE}
      DEPENDS ${SHAPEVM_UNICORN_ARCHIVE}
      COMMENT "Copying libunicorn.a with its crc32 renamed (zlib's keeps the name)"
      VERBATIM)
    add_custom_target(shapevm_unicorn_archive DEPENDS ${SHAPEVM_UNICORN_RENAMED_ARCHIVE})
  else()
    message(STATUS "shapevm: libunicorn.a or objcopy not found; Unicorn is opened as a shared library")
  endif()
endif()

set(SHAPEVM_RUNTIME_ALL_STATIC OFF)
if(shapevm_static_archives_found AND shapevm_fmt_linked)
  set(SHAPEVM_RUNTIME_ALL_STATIC ON)
endif()

# The math library, opened the first time a math function is called (core/libm/on_first_use.cpp):
# loaded at start it cost every process, `--version` included, some ten page faults and 0.3 ms.
# Each function core/libm/on_first_use.h lists is linked with --wrap, which sends the program's
# calls to it to a forwarding function that opens libm on its first call; --as-needed then leaves
# libm off the libraries loaded at start (a test checks that it stays off). Only when every other
# library is linked in: a shared libpng or fmt would load libm at start anyway.
add_library(shapevm_libm_on_first_use OBJECT ${PROJECT_SOURCE_DIR}/core/libm/on_first_use.cpp)
target_include_directories(shapevm_libm_on_first_use PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(shapevm_libm_on_first_use PUBLIC shapevm_core)  # core/shared_library.h
set(SHAPEVM_LIBM_ON_FIRST_USE ${SHAPEVM_RUNTIME_ALL_STATIC})
set(shapevm_libm_wrap_options "")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/core/libm/on_first_use.h)
# The names, read from the list's lines: "  X(RESULT, NAME, ...".
file(READ ${PROJECT_SOURCE_DIR}/core/libm/on_first_use.h shapevm_libm_header)
string(REGEX MATCHALL "\n  X\\([^,\n]+, [a-z0-9_]+," shapevm_libm_entries "${shapevm_libm_header}")
foreach(entry IN LISTS shapevm_libm_entries)
  string(REGEX REPLACE ".*, ([a-z0-9_]+),$" "\\1" name "${entry}")
  list(APPEND shapevm_libm_wrap_options "LINKER:--wrap=${name}")
endforeach()
list(LENGTH shapevm_libm_wrap_options shapevm_libm_count)
if(shapevm_libm_count EQUAL 0)
  message(FATAL_ERROR "no functions read from core/libm/on_first_use.h")
endif()

function(shapevm_link_runtime_statically target)
  if(SHAPEVM_STATIC_RUNTIME)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
  if(SHAPEVM_CAPSTONE_LINKED OR SHAPEVM_UNICORN_LINKED)
    target_link_options(${target} PRIVATE -no-pie)
  endif()
  if(SHAPEVM_STARTUP_ORDERED)
    set(order ${PROJECT_SOURCE_DIR}/cmake/startup_order.txt)
    target_link_options(${target} PRIVATE -fuse-ld=gold "LINKER:--section-ordering-file=${order}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${order})
  endif()
  if(SHAPEVM_LIBM_ON_FIRST_USE)
    target_link_libraries(${target} PRIVATE shapevm_libm_on_first_use)
    target_link_options(${target} PRIVATE LINKER:--as-needed ${shapevm_libm_wrap_options})
  endif()
endfunction()
