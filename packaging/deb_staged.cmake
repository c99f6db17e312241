# CPack runs this after staging the package's files (CPACK_PRE_BUILD_SCRIPTS): no installed ELF
# file keeps a RUNPATH but the collector. strata and strata-cli carry $ORIGIN:$ORIGIN/../lib
# (qt_standard_project_setup's install RPATH) for a relocatable install; they link no library of
# the package, so the package's copies need none. The collector keeps its RUNPATH into the CUDA
# toolkit (kernels/collector: where this build found CUPTI, e.g. /usr/local/cuda/lib): CUPTI is
# not a Debian package, and a runfile install of the toolkit registers no loader path, so without
# it the collector would not load into the target at all. lintian's custom-library-search-path
# is overridden for that one file, with this reason (packaging/debian/lintian-overrides).
file(GLOB_RECURSE _files LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
foreach(_f IN LISTS _files)
  if(IS_SYMLINK "${_f}")
    continue()
  endif()
  file(READ "${_f}" _magic LIMIT 4 HEX)
  get_filename_component(_name "${_f}" NAME)
  if(_magic STREQUAL "7f454c46" AND NOT _name STREQUAL "libstrata_collector.so") # \x7fELF
    file(RPATH_REMOVE FILE "${_f}")
  endif()
endforeach()
