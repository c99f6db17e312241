# The ranks of a distributed job (core/analysis/ranks/rank_digest.h, cross_rank.h; strata-cli ranks,
# the export of a set): digests and their JSON, the cross-rank reduce on hand-made ranks, the
# eight PARAM DLRM ranks of ../shared/traces/multirank (skipped where absent), the CLI.
strata_add_qtest(tst_trace_set_loader SOURCES tst_trace_set_loader.cpp rank_set_fixture.h
                 LIBS strata_core)
strata_add_qtest(tst_rank_digest SOURCES tst_rank_digest.cpp rank_set_fixture.h LIBS strata_core)
# One digestSet (io/set/digest_set.h) for the CLI and the window: its policy, progress and cancel,
# and io/digest_reader.h's one read of a set file's head.
strata_add_qtest(tst_digest_set SOURCES tst_digest_set.cpp rank_set_fixture.h LIBS strata_core)
strata_add_qtest(tst_cross_rank SOURCES tst_cross_rank.cpp rank_set_fixture.h LIBS strata_core)
strata_add_qtest(tst_ranks_dlrm SOURCES tst_ranks_dlrm.cpp rank_set_fixture.h LIBS strata_core
                 LABELS real_traces)
strata_add_qtest(tst_cli_ranks SOURCES tst_cli_ranks.cpp rank_set_fixture.h process_run.h
                 LIBS strata_core)
target_compile_definitions(tst_cli_ranks PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
add_dependencies(tst_cli_ranks strata-cli)
# What ranks and digest take (issue 42): digests by content, range-checked values, --file-list's
# rule, FIFOs among the inputs.
strata_add_qtest(tst_ranks_inputs SOURCES tst_ranks_inputs.cpp rank_set_fixture.h process_run.h
                 LIBS strata_core)
target_compile_definitions(tst_ranks_inputs PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>")
add_dependencies(tst_ranks_inputs strata-cli)

# packaging/slurm without Slurm (tests/slurm/slurm_scripts_check.sh: a fake sbatch that runs the
# jobs at once): OUTDIR with % or a backslash, the --file-list rule as strata-cli's, a FIFO LIST.
add_test(NAME slurm_scripts
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/slurm_scripts_check.sh
                 $<TARGET_FILE:strata-cli>)
set_tests_properties(slurm_scripts PROPERTIES TIMEOUT 300)

# strata-cli ranks --json on the eight DLRM ranks against an independent python computation from
# the raw JSON (tests/data/ranks/expected_ranks.py): labels, kernels, matched collectives, their
# spread, arrivals, waits, late ranks and the step's straggler.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME ranks_real_param_dlrm
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/ranks/expected_ranks.py
                   --check $<TARGET_FILE:strata-cli>
                   ${PROJECT_SOURCE_DIR}/../shared/traces/multirank/param-dlrm)
  set_tests_properties(ranks_real_param_dlrm PROPERTIES LABELS "real_traces" SKIP_RETURN_CODE 77
                       TIMEOUT 300)
endif()

# The ranks in one main window: the merged timeline and the Ranks dock (workspace/rank_set.h).
if(TARGET strata_app_gui)
  strata_add_qtest(tst_ranks_window SOURCES tst_ranks_window.cpp rank_set_fixture.h
                   LIBS strata_app_gui LABELS real_traces)
  target_compile_definitions(tst_ranks_window PRIVATE
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
  set_tests_properties(tst_ranks_window PROPERTIES TIMEOUT 300)
  strata_add_qtest(tst_ranks_digests SOURCES tst_ranks_digests.cpp rank_set_fixture.h
                   LIBS strata_app_gui LABELS real_traces)
  target_compile_definitions(tst_ranks_digests PRIVATE
    STRATA_SAMPLE_TRACE="${PROJECT_SOURCE_DIR}/resources/sample_trace.json")
endif()

# mpirun -n 1..3 strata-cli ranks --mpi against the single-process report (app/cli/cli_mpi.h):
# built and run where MPI was found; skips, saying so, otherwise.
strata_add_qtest(tst_cli_mpi SOURCES tst_cli_mpi.cpp rank_set_fixture.h process_run.h LIBS strata_core
                 LABELS "mpi;real_traces")
target_compile_definitions(tst_cli_mpi PRIVATE STRATA_CLI="$<TARGET_FILE:strata-cli>"
                           STRATA_MPIEXEC="${MPIEXEC_EXECUTABLE}")
if(STRATA_HAVE_MPI)
  target_compile_definitions(tst_cli_mpi PRIVATE STRATA_HAVE_MPI=1)
endif()
add_dependencies(tst_cli_mpi strata-cli)
set_tests_properties(tst_cli_mpi PROPERTIES TIMEOUT 300)
