#include "analysis/json/gpu_annotations_json.h"

#include "analysis/json/json_units.h"

namespace strata {

using json_units::us;

nlohmann::json gpuAnnotationsToJson(const GpuAnnotations& a) {
    nlohmann::json rows = nlohmann::json::array();
    for (const GpuAnnotationRow& r : a.rows)
        rows.push_back({{"name", r.name},
                        {"ops", r.ops},
                        {"kernels", r.kernels},
                        {"gpu_us", us(double(r.gpuTime))},
                        {"share", r.share},
                        {"annotations", r.annotations},
                        {"annotated_us", us(double(r.annotatedTime))}});
    return rows;
}

} // namespace strata
