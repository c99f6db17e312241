# CPack runs this after staging the package's files (CPACK_PRE_BUILD_SCRIPTS): no installed ELF
# file keeps a RUNPATH. The collector's install RPATH (kernels/collector: where this build found
# CUPTI, e.g. /usr/local/cuda/lib) serves a `cmake --install` from source; a Debian package must
# not carry one (lintian: custom-library-search-path): there the collector finds CUPTI, a part of
# the CUDA toolkit, through the dynamic loader's path, as the toolkit's packages set it up
# (/etc/ld.so.conf.d), or LD_LIBRARY_PATH. strata and strata-cli carry $ORIGIN:$ORIGIN/../lib
# (qt_standard_project_setup's install RPATH) for a relocatable install; they link no library of
# the package, so the package's copies need none.
file(GLOB_RECURSE _files LIST_DIRECTORIES false "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*")
foreach(_f IN LISTS _files)
  if(IS_SYMLINK "${_f}")
    continue()
  endif()
  file(READ "${_f}" _magic LIMIT 4 HEX)
  if(_magic STREQUAL "7f454c46") # \x7fELF
    file(RPATH_REMOVE FILE "${_f}")
  endif()
endforeach()
