#include "query/query_tables.h"

#include "query/tables/args_table.h"
#include "query/tables/row_table.h"
#include "query/tables/slice_tables.h"

namespace strata {

std::vector<std::unique_ptr<QueryTable>> makeQueryTables(const QuerySources& s) {
    std::vector<std::unique_ptr<QueryTable>> t;
    t.push_back(makeSlicesTable(s));
    t.push_back(makeGpuOpsTable(s));
    t.push_back(makeApiCallsTable(s));
    t.push_back(makeArgsTable(s));
    t.push_back(makeFlowsTable(s));
    t.push_back(makeCountersTable(s));
    t.push_back(makeInstantsTable(s));
    t.push_back(makeThreadsTable(s));
    t.push_back(makeProcessesTable(s));
    t.push_back(makeDevicesTable(s));
    t.push_back(makeStepsTable(s));
    t.push_back(makeGapsTable(s));
    t.push_back(makeSectionsTable(s));
    return t;
}

} // namespace strata
