// kernels/include/strata/sections.cuh compiled through NVRTC, as CuPy's RawKernel and Numba do
// (no GPU is needed to compile): the marks read clock64, %globaltimer and %smid and take a slot
// with one atomic add; with STRATA_SECTIONS=0 the same kernel has none of them.
#include "support/test_main.h"

#include <nvrtc.h>

#include <QtTest>

#include <string>
#include <vector>

namespace {

const char* kKernel =
    "#include <strata/sections.cuh>\n"
    "enum Section { Load = 0, Compute = 1, Store = 2 };\n"
    "extern \"C\" __global__ void scale(float* x, int n, strata::SectionsBuffer sb) {\n"
    "    strata::Sections s(sb);\n"
    "    s.begin(Load);\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float v = i < n ? x[i] : 0.f;\n"
    "    s.next(Compute);\n"
    "    for (int k = 0; k < 8; ++k) v = v * 1.5f + 1.f;\n"
    "    s.next(Store);\n"
    "    if (i < n) x[i] = v;\n"
    "    s.end();\n"
    "}\n"
    "extern \"C\" __global__ void fromPointers(const float* x, float* y, int n,\n"
    "        strata::SectionRecord* records, unsigned long long* count, unsigned int capacity) {\n"
    "    strata::Sections s({records, count, capacity, 1});  // docs/sections.md's CuPy form\n"
    "    s.begin(0);\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float v = i < n ? x[i] : 0.f;\n"
    "    s.next(1);\n"
    "    if (i < n) y[i] = 2.f * v;\n"
    "    s.end();\n"
    "}\n"
    "extern \"C\" __global__ void perWarp(float* x, strata::SectionsBuffer sb) {\n"
    "    strata::Sections s(sb, strata::kPerWarp);\n"
    "    s.begin(0);\n"
    "    x[threadIdx.x] += 1.f;\n"
    "    s.end();\n"
    "}\n";

// PTX of kKernel with these options, or an empty string and the log in *log.
std::string compile(std::vector<std::string> options, std::string* log) {
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, kKernel, "sections_test.cu", 0, nullptr, nullptr) !=
        NVRTC_SUCCESS)
        return {};
    options.push_back("-I" STRATA_KERNELS_INCLUDE);
    options.push_back("--gpu-architecture=compute_90");
    std::vector<const char*> argv;
    for (const std::string& o : options) argv.push_back(o.c_str());
    const nvrtcResult r = nvrtcCompileProgram(prog, int(argv.size()), argv.data());
    size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    log->assign(logSize, '\0');
    nvrtcGetProgramLog(prog, log->data());
    std::string ptx;
    if (r == NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetPTXSize(prog, &n);
        ptx.assign(n, '\0');
        nvrtcGetPTX(prog, ptx.data());
    }
    nvrtcDestroyProgram(&prog);
    return ptx;
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

} // namespace

class TestSectionsNvrtc : public QObject {
    Q_OBJECT
private slots:
    void marksCompile() {
        std::string log;
        const std::string ptx = compile({}, &log);
        QVERIFY2(!ptx.empty(), log.c_str());
        QVERIFY(ptx.find(".entry scale") != std::string::npos);
        QVERIFY(ptx.find(".entry fromPointers") != std::string::npos);
        QVERIFY(count(ptx, "%globaltimer") >= 1);
        QVERIFY(count(ptx, "%smid") >= 1);
        QVERIFY(count(ptx, "%clock64") >= 1);
        QVERIFY(count(ptx, "atom.global.add.u64") >= 1);
    }
    void switchedOffCostsNothing() {
        std::string log;
        const std::string ptx = compile({"-DSTRATA_SECTIONS=0"}, &log);
        QVERIFY2(!ptx.empty(), log.c_str());
        QCOMPARE(count(ptx, "%globaltimer"), 0);
        QCOMPARE(count(ptx, "%smid"), 0);
        QCOMPARE(count(ptx, "%clock64"), 0);
        QCOMPARE(count(ptx, "atom."), 0);
        QCOMPARE(count(ptx, "st.global.u64"), 0); // no record stores (x is stored as f32)
    }
};

STRATA_TEST_GUILESS_MAIN(TestSectionsNvrtc)
#include "tst_sections_nvrtc.moc"
