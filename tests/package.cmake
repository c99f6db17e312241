# The .deb (packaging/CMakeLists.txt) built, checked and, as root (CI), installed and run as a
# user would (tests/package/check_deb.sh): skipped, saying so, where dpkg-deb is absent, and the
# install part where not root. Needs the GUI (the package holds strata).
find_program(STRATA_DPKG_DEB dpkg-deb)
if(TARGET strata AND STRATA_DPKG_DEB)
  add_test(NAME package_deb
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/package/check_deb.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(package_deb PROPERTIES LABELS package SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
