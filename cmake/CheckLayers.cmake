# The floors of Strata's source tree, and the check that no include climbs them.
#
# strata_check_floors(ROOT DIR NAME TEXT [NO_QT] FLOORS "floor:below1,below2" ...)
#   fails the configure step when a source under DIR/<floor>/ includes "<other>/..." for an
#   <other> that is a floor of Strata (core's, widgets' or app's) not listed for it, or, with
#   NO_QT, any Qt header. A floor may always include itself; an include without a folder (a
#   neighbour in the same folder) is always allowed.
#
# The floors, lowest first (each may include the ones listed after it):
#   core/      util: -   contract: util   model: util   analysis: util model contract
#              io: util model contract analysis   record: util model contract analysis io
#              query: util model contract analysis (SQL over a trace; nothing below reads it)
#              (io sits above analysis: a set's files are recognised and read in io, and a rank
#              digest, which io/digest_reader.h reads and io/set/digest_set.h makes, is an
#              analysis result; analysis never reads a file)
#   widgets/   style: core's util model analysis   workspace: style + core
#              charts: style workspace + core   timeline: style workspace charts + core
#              docks (panels, analysis_views, sections, launch, ranks, compare, query): style
#              workspace charts + core,
#              never the timeline nor each other
#   app/       cli: core only, no Qt   gui: everything
# and within a floor, rooms that only some may enter (strata_check_room):
#   core/analysis/json/ (every result as JSON) is read by io, record and app, never by the
#   analyses themselves; app/gui/window/main_window.h (the shell) by main.cpp, modes/ and
#   window/ alone: the open pipeline and the actions get a WindowContext.
set(STRATA_CORE_FLOORS util contract model analysis io record query)
set(STRATA_WIDGET_FLOORS style workspace charts timeline panels analysis_views sections launch ranks
    compare query)

# strata_check_room(ROOT DIR INCLUDE "prefix" FROM dir1 dir2 ...): fails the configure step
# when a source under DIR includes "prefix..." and lies in none of DIR/dir1, DIR/dir2, ... (a
# dir may be a file's name, relative to DIR).
function(strata_check_room)
  cmake_parse_arguments(C "" "ROOT;INCLUDE" "FROM" ${ARGN})
  file(GLOB_RECURSE _files CONFIGURE_DEPENDS ${C_ROOT}/*.h ${C_ROOT}/*.cpp)
  set(_errors "")
  string(REPLACE ";" ", " _from "${C_FROM}")
  foreach(f ${_files})
    file(RELATIVE_PATH _rel ${C_ROOT} ${f})
    set(_inside FALSE)
    foreach(d ${C_FROM})
      if(_rel STREQUAL d OR _rel MATCHES "^${d}/")
        set(_inside TRUE)
      endif()
    endforeach()
    if(NOT _inside)
      file(STRINGS ${f} _hits REGEX "^#include \"${C_INCLUDE}")
      foreach(line ${_hits})
        list(APPEND _errors "${f}: ${line} (only ${_from} of ${C_ROOT} may)")
      endforeach()
    endif()
  endforeach()
  if(_errors)
    list(JOIN _errors "\n  " _text)
    message(FATAL_ERROR "Strata: includes into a room others may not enter:\n  ${_text}")
  endif()
endfunction()

function(strata_check_floors)
  cmake_parse_arguments(C "NO_QT" "ROOT;NAME" "FLOORS" ${ARGN})
  set(_known ${STRATA_CORE_FLOORS} ${STRATA_WIDGET_FLOORS})
  set(_errors "")
  foreach(entry ${C_FLOORS})
    string(REPLACE ":" ";" _parts "${entry}")
    list(GET _parts 0 _floor)
    set(_allowed ${_floor})
    list(LENGTH _parts _n)
    if(_n GREATER 1)
      list(GET _parts 1 _below)
      string(REPLACE "," ";" _below "${_below}")
      list(APPEND _allowed ${_below})
    endif()
    file(GLOB_RECURSE _files CONFIGURE_DEPENDS ${C_ROOT}/${_floor}/*.h ${C_ROOT}/${_floor}/*.cpp)
    foreach(f ${_files})
      file(STRINGS ${f} _includes REGEX "^#include [\"<]")
      foreach(line ${_includes})
        if(C_NO_QT AND line MATCHES "^#include <Q")
          list(APPEND _errors "${f}: ${line} (${C_NAME} is Qt-free)")
        elseif(line MATCHES "^#include \"([a-z_]+)/")
          set(_to ${CMAKE_MATCH_1})
          if(_to IN_LIST _known AND NOT _to IN_LIST _allowed)
            list(APPEND _errors "${f}: ${line} (${_floor} may include ${_allowed})")
          endif()
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(_errors)
    list(JOIN _errors "\n  " _text)
    message(FATAL_ERROR "Strata: includes that climb the floors of ${C_NAME}:\n  ${_text}")
  endif()
endfunction()

# core/: Qt-free, each layer on the ones below it.
set(STRATA_CORE_ALL "util,contract,model,analysis,io,record,query")
function(strata_check_layers core)
  strata_check_floors(ROOT ${core} NAME "core/" NO_QT FLOORS
    "util" "contract:util" "model:util" "analysis:util,model,contract"
    "io:util,model,contract,analysis" "record:util,model,contract,analysis,io"
    "query:util,model,contract,analysis")
  strata_check_room(ROOT ${core} INCLUDE "analysis/json/" FROM analysis/json io record)
endfunction()

# widgets/: each floor on the ones below it; a dock never includes the timeline or another dock.
function(strata_check_widget_floors widgets)
  set(_docks "style,workspace,charts,${STRATA_CORE_ALL}")
  strata_check_floors(ROOT ${widgets} NAME "widgets/" FLOORS
    "style:util,model,analysis"
    "workspace:style,${STRATA_CORE_ALL}"
    "charts:style,workspace,${STRATA_CORE_ALL}"
    "timeline:style,workspace,charts,${STRATA_CORE_ALL}"
    "panels:${_docks}" "analysis_views:${_docks}" "sections:${_docks}" "launch:${_docks}"
    "ranks:${_docks}" "compare:${_docks}" "query:${_docks}")
endfunction()

# app/: strata-cli on core alone (no Qt); the GUI's window may include every floor.
function(strata_check_app_floors app)
  strata_check_floors(ROOT ${app} NAME "app/" NO_QT FLOORS "cli:${STRATA_CORE_ALL}")
  strata_check_room(ROOT ${app}/gui INCLUDE "window/main_window.h" FROM main.cpp modes window)
endfunction()
