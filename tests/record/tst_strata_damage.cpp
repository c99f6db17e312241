// The .strata reader on damaged input: every damaged byte named (file, offset, record), what
// was good kept, nothing crashes. Expected values written by hand.
#include "support/strata_format_fixture.h"
#include "support/test_main.h"

class TestStrataDamage : public QObject, public StrataFormatFiles {
    Q_OBJECT

private slots:
    void damagedBlocksAreNamed() {
        // A block whose size disagrees with its rows, and a row with an unknown kind: the chunk
        // is reported (with the row), the chunk before it kept.
        const std::string good = readAll(STRATA_TEST_DATA "/record/python_blocks.strata");
        // Chunk 0 at byte 8: its header, String 1 (25 bytes), String 2 (13), the CpuSliceBlock.
        const size_t chunk0 = 8, cpuAt = chunk0 + 20 + 25 + 13;
        auto withCrc = [&](std::string b) {
            uint32_t len;
            std::memcpy(&len, b.data() + chunk0 + 8, 4);
            const uint32_t crc =
                crc32c(crc32c(0, b.data() + chunk0, 16), b.data() + chunk0 + 20, len);
            std::memcpy(b.data() + chunk0 + 16, &crc, 4);
            return b;
        };
        QCOMPARE(uint8_t(good[cpuAt]), uint8_t(15));
        std::string rows = good;
        const uint32_t four = 4;
        std::memcpy(rows.data() + cpuAt + 5 + 16, &four, 4); // 4 rows announced, 3 present
        std::string kind = good;
        kind[cpuAt + 5 + 20 + 3 * 8 + 3 * 8 + 3 * 4 + 2] = char(99); // row 2's kind
        struct Case {
            std::string bytes, warning;
            size_t kept; // slices: the rows before a bad row are kept, as records before a bad one
        };
        const Case cases[] = {{withCrc(rows),
                               "record 2 at byte " + std::to_string(cpuAt) +
                                   ": CpuSliceBlock of 4 rows has 119 body bytes, expected 152",
                               0},
                              {withCrc(kind),
                               "record 2 at byte " + std::to_string(cpuAt) +
                                   ": row 2 of the block: slice kind 99 is not a known SliceKind",
                               2}};
        for (const Case& c : cases)
            for (auto path : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
                const LoadResult r = readStrataBuffer(c.bytes, "b.strata", {}, path);
                QVERIFY(r.ok());
                QVERIFY2(hasWarning(*r.trace, c.warning), allWarnings(*r.trace).c_str());
                QCOMPARE(r.trace->sliceCount(), c.kept);
            }
    }

    void truncatedAtEveryByte() {
        std::vector<uint64_t> ends;
        const std::string p = writeFourChunks(&ends);
        QVERIFY(!p.empty());
        QCOMPARE(ends.size(), size_t(6)); // header, 4 data chunks, end-of-file chunk
        const std::string full = readAll(p);
        QCOMPARE(uint64_t(full.size()), ends.back());
        const std::string cut = path("cut.strata");
        for (size_t len = 0; len < full.size(); ++len) {
            writeAll(cut, full.substr(0, len));
            const LoadResult r = readStrataTrace(cut, {});
            if (len < 8) { // named where the header ends
                QVERIFY(!r.ok());
                QCOMPARE(r.error->byteOffset, uint64_t(len));
                continue;
            }
            QVERIFY2(r.ok(), std::to_string(len).c_str());
            // Complete chunks in the prefix; each data chunk holds 3 slices.
            size_t complete = 0;
            while (complete + 1 < ends.size() && ends[complete + 1] <= len) ++complete;
            const size_t dataChunks = std::min<size_t>(complete, 4);
            QCOMPARE(r.trace->sliceCount(), dataChunks * 3);
            const Trace& t = *r.trace;
            if (len == ends[complete]) {
                QVERIFY2(hasWarning(t, "no end-of-file record after " + std::to_string(complete) +
                                           " chunk(s)"),
                         allWarnings(t).c_str());
            } else {
                const std::string where = "chunk " + std::to_string(complete) + " at byte " +
                                          std::to_string(ends[complete]) + ": truncated";
                QVERIFY2(hasWarning(t, where),
                         (std::to_string(len) + ": " + allWarnings(t)).c_str());
            }
        }
    }

    void damagedCrcKeepsEarlierChunks() {
        std::vector<uint64_t> ends;
        const std::string p = writeFourChunks(&ends);
        std::string b = readAll(p);
        b[ends[2] + 20 + 3] ^= 0x40; // a payload byte of chunk 2
        writeAll(p, b);
        const LoadResult r = readStrataTrace(p, {});
        QVERIFY(r.ok());
        QCOMPARE(r.trace->sliceCount(), size_t(6));
        const std::string expected =
            "chunk 2 at byte " + std::to_string(ends[2]) + ": CRC mismatch";
        QVERIFY2(hasWarning(*r.trace, expected), allWarnings(*r.trace).c_str());
        QVERIFY(hasWarning(*r.trace, "kept the 2 chunk(s) before it"));
    }

    void badChunkLength() {
        std::vector<uint64_t> ends;
        const std::string p = writeFourChunks(&ends);
        std::string b = readAll(p);
        const uint32_t huge = 0x7FFFFFFF;
        std::memcpy(b.data() + ends[1] + 8, &huge, 4);
        writeAll(p, b);
        const LoadResult r = readStrataTrace(p, {});
        QVERIFY(r.ok());
        QCOMPARE(r.trace->sliceCount(), size_t(3));
        QVERIFY2(hasWarning(*r.trace, "chunk 1 at byte " + std::to_string(ends[1]) +
                                          ": bad chunk length 2147483647"),
                 allWarnings(*r.trace).c_str());
    }

    void unknownVersionIsAnError() {
        std::vector<uint64_t> ends;
        const std::string p = writeFourChunks(&ends);
        std::string b = readAll(p);
        b[6] = 2;
        b[7] = 0;
        writeAll(p, b);
        const LoadResult r = loadTrace(p);
        QVERIFY(!r.ok());
        QCOMPARE(r.error->file, p);
        QCOMPARE(r.error->byteOffset, uint64_t(6));
        QVERIFY2(r.error->message.find("unsupported .strata version 2.0") != std::string::npos,
                 r.error->message.c_str());
    }

    void notAStrataFile() {
        const std::string p = path("bogus.strata");
        writeAll(p, "STRATX\x01\x00 hello");
        const LoadResult r = readStrataTrace(p, {});
        QVERIFY(!r.ok());
        QVERIFY(r.error->message.find("expected the .strata header") != std::string::npos);
    }

    void unknownRecordTypeOfNewerMinorIsSkipped() {
        // Hand-made v1.1 file: a record of type 200 (unknown) between two known ones.
        std::string payload;
        auto rec = [&](uint8_t type, const std::string& body) {
            const uint32_t n = uint32_t(body.size());
            payload += char(type);
            payload.append(reinterpret_cast<const char*>(&n), 4);
            payload += body;
        };
        rec(1, std::string("\x01\x00\x00\x00", 4) + "x");
        rec(200, "future stuff");
        rec(13, "hello");
        std::string head = "CHNK";
        const uint32_t fields[3] = {0, uint32_t(payload.size()), 3};
        head.append(reinterpret_cast<const char*>(fields), 12);
        const uint32_t crc = crc32c(crc32c(0, head.data(), 16), payload.data(), payload.size());
        head.append(reinterpret_cast<const char*>(&crc), 4);
        const std::string p = path("minor.strata");
        writeAll(p, std::string("STRATA\x01\x01", 8) + head + payload);
        const LoadResult r = readStrataTrace(p, {});
        QVERIFY(r.ok());
        QVERIFY(hasWarning(*r.trace, "hello"));
        QVERIFY2(hasWarning(*r.trace, "skipped 1 record(s) of types this build does not know "
                                      "(file version 1.1)"),
                 allWarnings(*r.trace).c_str());
    }

    void mutatedRecordsNeverCrash() {
        // Random bytes changed inside chunk payloads, CRCs recomputed so the records are parsed:
        // every load must finish (a trace, maybe with a warning) without crashing.
        const std::string p = path("mutate-src.strata");
        QVERIFY(writeEveryRecordType(p));
        const std::string original = readAll(p);
        std::vector<std::pair<size_t, size_t>> chunks; // (header offset, payload bytes)
        for (size_t at = 8; at + 20 <= original.size(); at += 20 + u32At(original, at + 8))
            chunks.emplace_back(at, u32At(original, at + 8));
        QCOMPARE(chunks.size(), size_t(3)); // two flushes of data + the end-of-file chunk
        uint64_t rng = 12345;
        auto next = [&] {
            return (rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 33;
        };
        const std::string q = path("mutate.strata");
        size_t damaged = 0;
        for (int iter = 0; iter < 3000; ++iter) {
            std::string b = original;
            const auto [at, len] = chunks[next() % 2];
            for (int k = 0, n = 1 + int(next() % 4); k < n; ++k)
                b[at + 20 + next() % len] = char(next());
            const uint32_t crc = crc32c(crc32c(0, b.data() + at, 16), b.data() + at + 20, len);
            std::memcpy(b.data() + at + 16, &crc, 4);
            writeAll(q, b);
            const LoadResult r = readStrataTrace(q, {});
            QVERIFY(r.ok());
            damaged += hasWarning(*r.trace, "chunk ");
        }
        QVERIFY(damaged > 0); // some mutations hit lengths, kinds or string ids and were caught
    }
};

STRATA_TEST_GUILESS_MAIN(TestStrataDamage)
#include "tst_strata_damage.moc"
