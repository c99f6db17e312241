# Warnings on everywhere; sanitizers by option.
add_compile_options(-Wall -Wextra)
if(STRATA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# strata_add_qtest(NAME SOURCES... [LIBS ...] [LABELS ...] [ENV ...])
# One Qt Test program per unit, registered with CTest.
function(strata_add_qtest name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;ENV" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${T_LIBS})
  target_compile_definitions(${name} PRIVATE
    STRATA_TEST_DATA="${PROJECT_SOURCE_DIR}/tests/data"
    STRATA_SHARED_TRACES="${PROJECT_SOURCE_DIR}/../shared/traces"
    STRATA_BINARY_DIR="${PROJECT_BINARY_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  set(_env "QT_QPA_PLATFORM=offscreen" ${T_ENV})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${_env}" TIMEOUT 600)
  if(T_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()
