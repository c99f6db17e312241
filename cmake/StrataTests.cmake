# The Qt Test suite: one program per area (tests/<area>/ builds tests_<area> into build/tests),
# holding that area's test classes, each registered with CTest under its own name.
#
#   strata_test_area(AREA)       starts tests_AREA (tests/support/test_main.cpp: runs the class
#                                named on its command line); call it first in tests/AREA/
#   strata_add_qtest(NAME SOURCES... [LIBS ...] [LABELS ...] [ENV ...] [DEFINES ...]
#                    [INCLUDES ...] [DEPENDS targets...] [TIMEOUT s])
#                                adds the class in NAME.cpp to the area's program and the test
#                                NAME (`tests_AREA NAME`); DEFINES and INCLUDES apply to its own
#                                sources only, LIBS and DEPENDS to the whole program
#
# Every test runs in build/tests with QT_QPA_PLATFORM=offscreen (and ENV), a 600 s timeout unless
# TIMEOUT says otherwise; STRATA_TEST_DATA, STRATA_SHARED_TRACES and STRATA_BINARY_DIR are defined.

# Where every test runs (as when all the tests were built in build/tests).
set(STRATA_TEST_WORKDIR ${PROJECT_BINARY_DIR}/tests)

# Precompiled: the Qt and standard headers every test reads, and the core's most used ones.
set(STRATA_TEST_PCH <QtTest> <QObject> <QString> <QStringList> <QTemporaryDir> <QFile> <QDir>
    <QProcess> <QSignalSpy> <nlohmann/json.hpp> <string> <vector> <map> <memory> <functional>
    <algorithm>)

function(strata_test_area area)
  set(prog tests_${area})
  add_executable(${prog} ${PROJECT_SOURCE_DIR}/tests/support/test_main.cpp)
  target_link_libraries(${prog} PRIVATE Qt6::Test Threads::Threads nlohmann_json::nlohmann_json)
  target_include_directories(${prog} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${prog} PRIVATE
    STRATA_TEST_DATA="${PROJECT_SOURCE_DIR}/tests/data"
    STRATA_SHARED_TRACES="${PROJECT_SOURCE_DIR}/../shared/traces"
    STRATA_BINARY_DIR="${PROJECT_BINARY_DIR}")
  set_target_properties(${prog} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  if(TARGET strata_test_support)
    target_link_libraries(${prog} PRIVATE strata_test_support)
  endif()
  if(STRATA_PCH)
    target_precompile_headers(${prog} PRIVATE ${STRATA_TEST_PCH})
    # GCC 12 loses the system-header status of the standard headers read from a precompiled
    # header, and its -Warray-bounds and -Wstringop-overflow false positives on std::string's
    # inlined memcpy (GCC bug 105329) then show in a few test files; the core and strata-cli
    # have no precompiled header.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${prog} PRIVATE -Wno-array-bounds -Wno-stringop-overflow)
    endif()
  endif()
  set(STRATA_TEST_PROGRAM ${prog} PARENT_SCOPE)
endfunction()

function(strata_add_qtest name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS;ENV;DEFINES;INCLUDES;DEPENDS" ${ARGN})
  if(NOT STRATA_TEST_PROGRAM)
    message(FATAL_ERROR "strata_add_qtest(${name}): call strata_test_area() first")
  endif()
  set(prog ${STRATA_TEST_PROGRAM})
  target_sources(${prog} PRIVATE ${T_SOURCES})
  if(T_LIBS)
    target_link_libraries(${prog} PRIVATE ${T_LIBS})
  endif()
  if(T_DEPENDS)
    add_dependencies(${prog} ${T_DEPENDS})
  endif()
  foreach(src ${T_SOURCES})
    if(NOT src MATCHES "\\.(cpp|c)$")
      continue()
    endif()
    if(T_DEFINES)
      set_property(SOURCE ${src} APPEND PROPERTY COMPILE_DEFINITIONS ${T_DEFINES})
    endif()
    if(T_INCLUDES)
      set_property(SOURCE ${src} APPEND PROPERTY INCLUDE_DIRECTORIES ${T_INCLUDES})
    endif()
    # Sources from outside tests/ (the collector's) are not test code: no Qt headers forced in.
    get_filename_component(_abs ${src} ABSOLUTE)
    if(NOT _abs MATCHES "^${PROJECT_SOURCE_DIR}/tests/")
      set_property(SOURCE ${src} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  add_test(NAME ${name} COMMAND ${prog} ${name} WORKING_DIRECTORY ${STRATA_TEST_WORKDIR})
  set(_env "QT_QPA_PLATFORM=offscreen" ${T_ENV})
  set(_timeout 600)
  if(T_TIMEOUT)
    set(_timeout ${T_TIMEOUT})
  endif()
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${_env}" TIMEOUT ${_timeout})
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()
