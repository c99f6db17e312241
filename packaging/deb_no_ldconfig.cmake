# CPack runs this on the packages it made (CPACK_POST_BUILD_SCRIPTS). CPack's DEB generator adds
# postinst and postrm scripts that run ldconfig whenever a shared library lies in /usr/lib or in
# a folder right under it; the collector is in /usr/lib/strata, a private folder ldconfig never
# reads, found by its path (strata-cli record, Profile > Launch). Those scripts are taken out of
# each .deb again when they do nothing else (CPack has no setting to leave them out).
find_program(_dpkg_deb dpkg-deb)
foreach(_deb IN LISTS CPACK_PACKAGE_FILES)
  if(NOT _deb MATCHES "\\.deb$")
    continue()
  endif()
  if(NOT _dpkg_deb)
    message(WARNING "dpkg-deb not found: ${_deb} keeps CPack's ldconfig scripts")
    continue()
  endif()
  set(_tree "${CPACK_TOPLEVEL_DIRECTORY}/deb-without-ldconfig")
  file(REMOVE_RECURSE "${_tree}")
  execute_process(COMMAND "${_dpkg_deb}" --raw-extract "${_deb}" "${_tree}"
                  RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb --raw-extract ${_deb}: exit code ${_rc}")
  endif()
  set(_dropped "")
  foreach(_script postinst postrm)
    set(_path "${_tree}/DEBIAN/${_script}")
    if(NOT EXISTS "${_path}")
      continue()
    endif()
    # CPack's script: a shebang, set -e, and ldconfig on configure / remove; nothing else.
    file(STRINGS "${_path}" _lines)
    list(FILTER _lines EXCLUDE REGEX "^(#!/bin/sh|set -e|if \\[ \"\\$1\" = \"(configure|remove)\" \\]; then|[ \t]*ldconfig|fi|[ \t]*)$")
    if(_lines STREQUAL "")
      file(REMOVE "${_path}")
      list(APPEND _dropped ${_script})
    endif()
  endforeach()
  if(_dropped)
    execute_process(COMMAND "${_dpkg_deb}" --root-owner-group -Zgzip --build "${_tree}" "${_deb}"
                    OUTPUT_QUIET RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "dpkg-deb --build ${_deb}: exit code ${_rc}")
    endif()
  endif()
  file(REMOVE_RECURSE "${_tree}")
endforeach()
