# strata_check_layers(CORE_DIR): fails the configure step when a source in core/ includes a
# layer above its own, or any Qt header. The layers, lowest first, and what each may include:
#   util      util
#   model     util model
#   io        util model io record/output_path.h record/collector_env.h
#   analysis  util model analysis
#   record    util model io record
# (io may name the output path template and the collector's variables: the writer a recording
# process links is in io, the template's owner in record.)
function(strata_check_layers core)
  set(_allowed_util "util")
  set(_allowed_model "util;model")
  set(_allowed_io "util;model;io")
  set(_allowed_analysis "util;model;analysis")
  set(_allowed_record "util;model;io;record")
  set(_errors "")
  foreach(layer util model io analysis record)
    file(GLOB_RECURSE _files CONFIGURE_DEPENDS ${core}/${layer}/*.h ${core}/${layer}/*.cpp)
    foreach(f ${_files})
      file(STRINGS ${f} _includes REGEX "^#include [\"<]")
      foreach(line ${_includes})
        if(line MATCHES "^#include <Q")
          list(APPEND _errors "${f}: ${line} (core/ is Qt-free)")
        elseif(line MATCHES "^#include \"([a-z_]+)/")
          set(_to ${CMAKE_MATCH_1})
          if(NOT _to IN_LIST _allowed_${layer}
             AND NOT (layer STREQUAL "io" AND line MATCHES "\"record/(output_path|collector_env)\\.h\""))
            list(APPEND _errors "${f}: ${line} (${layer} may include ${_allowed_${layer}})")
          endif()
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(_errors)
    list(JOIN _errors "\n  " _text)
    message(FATAL_ERROR "Strata: includes that climb the layers of core/:\n  ${_text}")
  endif()
endfunction()
