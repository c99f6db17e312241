// Short names a user recognises (core/model/display_name.h, Trace::displayName), on real kernel
// names taken from the traces in ../shared/traces (cutlass, flash attention, elementwise, NCCL)
// and an Inductor (triton) kernel name; every expected short name worked out by hand from the
// rules in display_name.h. On every real trace: no two distinct kernels of the statistics table
// share a short name, none reads "void ..." or is empty.
#include "analysis/ops/op_stats.h"
#include "io/trace_loader.h"
#include "model/names/display_name.h"
#include "support/test_main.h"

#include <QDir>
#include <QtTest>

#include <set>

using namespace strata;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// From tracelens-h100__Qwen_Qwen1.5-0.5B-Chat (kernels 1-4 of its 4 elementwise_kernel<128, 4>).
const char* kMul =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
    "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::"
    "MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, "
    "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::"
    "{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::"
    "BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >("
    "at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::"
    "BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1})";
const char* kCopy =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
    "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::"
    "{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, "
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
    "const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::"
    "{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_"
    "cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()"
    "() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_"
    "kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::"
    "operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})";
const char* kNeg =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
    "neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::"
    "operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_"
    "kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::"
    "operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::"
    "gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::"
    "operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}>(at::"
    "TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::"
    "operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::"
    "{lambda(int)#1})";
const char* kAdd =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
    "CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::"
    "BFloat16> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::"
    "CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::"
    "BFloat16> const&)::{lambda(int)#1})";

} // namespace

class TestDisplayName : public QObject {
    Q_OBJECT
private slots:
    void shortName_data() {
        QTest::addColumn<QString>("full");
        QTest::addColumn<QString>("expected");
        // Qwen/H100: a cutlass GEMM; a plain template argument (a configuration's name) stays.
        QTest::newRow("cutlass")
            << "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>("
               "cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)"
            << "cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(…)";
        // Qwen/H100: flash attention; the traits argument (brackets of its own) is elided.
        QTest::newRow("flash")
            << "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, "
               "128, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_"
               "traits<64, 128, 128, 4, cutlass::bfloat16_t> >, false, true, false, false, false, "
               "true, false>(pytorch_flash::Flash_fwd_params)"
            << "pytorch_flash::flash_fwd_kernel<…, false, true, false, false, false, true, "
               "false>(…)";
        QTest::newRow("elementwise") << kMul << "at::native::elementwise_kernel<128, 4, …>(…)";
        QTest::newRow("vectorized std::array")
            << "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::"
               "BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::"
               "BFloat16>, std::array<char*, 3ul>)"
            << "at::native::vectorized_elementwise_kernel<4, …>(…)";
        // PARAM DLRM/V100 (stream 84): NCCL.
        QTest::newRow("nccl")
            << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
            << "ncclKernel_AllReduce_RING_LL_Sum_float(…)";
        QTest::newRow("anonymous namespace")
            << "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
               "namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous "
               "namespace)::OpaqueType<2u>*, int)"
            << "at::native::(anonymous namespace)::CatArrayBatchedCopy<…, unsigned int, 4, 64, "
               "64>(…)";
        QTest::newRow("no parameters") << "void kernel<int>()"
                                       << "kernel<int>()";
        // Inductor's kernels are plain identifiers (this one as TraceLens's tests name it).
        QTest::newRow("triton") << "triton_poi_fused_add_mul_0"
                                << "triton_poi_fused_add_mul_0";
        QTest::newRow("xmma") << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
                                 "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
                              << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
                                 "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";
        // Names that are not C++ signatures stay whole (all from the real traces).
        for (const char* n : {"aten::mm", "cudaLaunchKernel", "ProfilerStep#6", "[memory]",
                              "nn.Module: Linear_0", "dataclasses.py(1293): <genexpr>",
                              "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                              "Memcpy DtoH (Device -> Pageable)", "Memset (Device)",
                              "<built-in function _cuda_synchronize>", ""})
            QTest::newRow(*n ? n : "empty") << n << n;
        // What cannot be parsed is kept whole, never cut.
        QTest::newRow("unbalanced") << "f<int>(a))"
                                    << "f<int>(a))";
        QTest::newRow("unclosed") << "void f<int("
                                  << "void f<int(";
        QTest::newRow("a < b") << "a < b > c"
                               << "a < b > c";
        QTest::newRow("operator") << "void S::operator()<int>(int)"
                                  << "S::operator()<int>(…)";
    }
    void shortName() {
        QFETCH(QString, full);
        QFETCH(QString, expected);
        QCOMPARE(q(strata::shortName(full.toStdString())), expected);
    }

    void deepNestingIsKept() {
        std::string deep = "f";
        for (int i = 0; i < 100; ++i) deep += "<a";
        for (int i = 0; i < 100; ++i) deep += ">";
        QCOMPARE(strata::shortName(deep), deep); // past 64 levels: whole, no recursion to 100
        std::string ok = "void f";
        for (int i = 0; i < 10; ++i) ok += "<a";
        for (int i = 0; i < 10; ++i) ok += ">";
        QCOMPARE(q(strata::shortName(ok + "(int)")), QString("f<…>(…)"));
    }

    // The four elementwise_kernel<128, 4, …> kernels of the Qwen trace read the same in short;
    // each is told apart by what differs, shallowest first (worked out in display_name.h's terms:
    // the third argument shown, then its template argument).
    void distinctByWhatDiffers() {
        const std::vector<std::string_view> names{kMul, kCopy, kNeg, kAdd};
        const std::vector<std::string> s = distinctShortNames(names);
        QCOMPARE(q(s[0]), QString("at::native::elementwise_kernel<128, 4, gpu_kernel_impl_nocast<"
                                  "BinaryFunctor<BFloat16, BFloat16, BFloat16, …>>(…)::…>(…)"));
        QCOMPARE(q(s[1]), QString("at::native::elementwise_kernel<128, 4, gpu_kernel_impl_nocast<"
                                  "direct_copy_kernel_cuda(…)::…>(…)::…>(…)"));
        QCOMPARE(q(s[2]), QString("at::native::elementwise_kernel<128, 4, gpu_kernel_impl_nocast<"
                                  "neg_kernel_cuda(…)::…>(…)::…>(…)"));
        QCOMPARE(q(s[3]), QString("at::native::elementwise_kernel<128, 4, gpu_kernel_impl_nocast<"
                                  "CUDAFunctor_add<BFloat16>>(…)::…>(…)"));
        // Alone, each keeps its shortest form.
        const std::vector<std::string_view> one{kCopy};
        QCOMPARE(q(distinctShortNames(one)[0]),
                 QString("at::native::elementwise_kernel<128, 4, …>(…)"));
    }

    void distinctFallsBackToFullNames() {
        // Nothing elided tells these apart (they differ in spacing only): their full names.
        const std::vector<std::string_view> names{"f<a,b>(int)", "f<a, b>(int)", "g(int)"};
        const std::vector<std::string> s = distinctShortNames(names);
        QCOMPARE(q(s[0]), QString("f<a,b>(int)"));
        QCOMPARE(q(s[1]), QString("f<a, b>(int)"));
        QCOMPARE(q(s[2]), QString("g(…)"));
        // A short form that is another name's full name: both keep their full names.
        const std::vector<std::string_view> clash{"h(…)", "h(int)"};
        const std::vector<std::string> c = distinctShortNames(clash);
        QCOMPARE(q(c[0]), QString("h(…)"));
        QCOMPARE(q(c[1]), QString("h(int)"));
    }

    void realTraces_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(STRATA_SHARED_TRACES));
        if (!dir.exists()) QSKIP("no ../shared/traces folder here");
        for (const QString& f : dir.entryList({"*.json", "*.gz"}, QDir::Files))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    // Every kernel of the statistics table has a short name of its own, never "void ..." nor
    // empty; every slice name of the trace reads apart.
    void realTraces() {
        QFETCH(QString, file);
        const LoadResult r = loadTrace(file.toStdString());
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        const Trace& t = *r.trace;
        const OpStats st = computeOpStats(t);
        std::set<std::string_view> kernels;
        for (const KernelRow& k : st.kernels) {
            const std::string_view s = t.displayName(k.nameId);
            QVERIFY2(!s.empty() && !s.starts_with("void"), k.name.c_str());
            QVERIFY2(kernels.insert(s).second, std::string(s).c_str());
        }
        std::set<StringId> ids;
        for (const Track& tr : t.tracks())
            for (StringId id : tr.slices.name) ids.insert(id);
        std::set<std::string_view> shown;
        for (StringId id : ids)
            QVERIFY2(shown.insert(t.displayName(id)).second, std::string(t.str(id)).c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestDisplayName)
#include "tst_display_name.moc"
