# What makes a fresh build take minutes rather than most of an hour on two cores (issue 43):
#
# - ccache, where it is found and no compiler launcher was given (-DCMAKE_CXX_COMPILER_LAUNCHER=
#   or the environment variable of that name), with the sloppiness precompiled headers need;
#   STRATA_CCACHE=OFF leaves it out.
# - precompiled headers (STRATA_PCH, on by default): strata_pch(TARGET HEADERS...) precompiles
#   the Qt and standard headers a library's or a test program's sources all read; a target's
#   sources from elsewhere can opt out with the source property SKIP_PRECOMPILE_HEADERS.
# - the linker: lld where it is installed (STRATA_LINKER=lld|gold|bfd|default; default: lld
#   when found), for the test programs and the GUI's large link.
option(STRATA_CCACHE "Compile through ccache where it is found" ON)
option(STRATA_PCH "Precompiled headers for Qt, the standard library and the core" ON)
set(STRATA_LINKER "auto" CACHE STRING "Linker: auto (lld when found), lld, gold, bfd or default")

if(STRATA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT DEFINED ENV{CMAKE_CXX_COMPILER_LAUNCHER})
  find_program(STRATA_CCACHE_PROGRAM ccache)
  if(STRATA_CCACHE_PROGRAM)
    # ccache 4.7 takes its settings from the environment only: cmake -E env sets them.
    set(_ccache ${CMAKE_COMMAND} -E env
        "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        ${STRATA_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_ccache})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_ccache})
    message(STATUS "Strata: compiling through ${STRATA_CCACHE_PROGRAM}")
  endif()
endif()

if(STRATA_LINKER STREQUAL "auto")
  find_program(STRATA_LLD ld.lld)
  set(_linker "")
  if(STRATA_LLD)
    set(_linker lld)
  endif()
elseif(STRATA_LINKER STREQUAL "default")
  set(_linker "")
else()
  set(_linker ${STRATA_LINKER})
endif()
if(_linker AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_link_options($<$<LINK_LANGUAGE:C,CXX>:-fuse-ld=${_linker}>)
  message(STATUS "Strata: linking with ${_linker}")
endif()

# strata_pch(TARGET HEADERS...): TARGET's sources start from HEADERS precompiled (no-op where
# STRATA_PCH is off).
function(strata_pch target)
  if(STRATA_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
