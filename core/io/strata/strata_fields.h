#pragma once
// How the fields of a .strata record lie in its body: fixed-width little-endian values one after
// the other, no padding, copied with memcpy. A record type (io/strata/strata_records.h) names
// its struct's members in body order, Fields<S, &S::a, &S::b, ...>, and picks one of the body
// shapes below; its size, its offsets, its read and its write all follow from that list.
// Plain std (the writer, and so the collector, includes it).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace strata::format {

// How one value is stored: a number, or an array of numbers, as its bytes. A struct stored as
// fields gets a specialisation deriving from StructCodec (GpuActivity, the rows of slice blocks).
template <typename T> struct Codec {
    static_assert(std::is_arithmetic_v<T>, "a field is a number, an array of numbers or a struct "
                                           "with a Codec");
    static constexpr uint32_t kBytes = sizeof(T);
    static T read(const uint8_t* p) {
        T v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static void write(uint8_t* p, const T& v) { std::memcpy(p, &v, sizeof v); }
};
template <typename T, size_t N> struct Codec<std::array<T, N>> {
    static_assert(std::is_arithmetic_v<T>);
    static constexpr uint32_t kBytes = uint32_t(sizeof(T) * N);
    static std::array<T, N> read(const uint8_t* p) {
        std::array<T, N> v;
        std::memcpy(v.data(), p, kBytes);
        return v;
    }
    static void write(uint8_t* p, const std::array<T, N>& v) { std::memcpy(p, v.data(), kBytes); }
};

// The struct and the type of a pointer to a data member.
template <typename M> struct MemberOf;
template <typename S, typename T> struct MemberOf<T S::*> {
    using Struct = S;
    using Type = T;
};
template <auto Member> using MemberType = typename MemberOf<decltype(Member)>::Type;

// Members of S stored in this order, each as its Codec says.
template <typename S, auto... Members> struct Fields {
    using Struct = S;
    static_assert((std::is_same_v<typename MemberOf<decltype(Members)>::Struct, S> && ...));
    static constexpr size_t kCount = sizeof...(Members);
    static constexpr uint32_t kBytes = (Codec<MemberType<Members>>::kBytes + ... + 0);

    // Where `Member` starts in the body.
    template <auto Member> static constexpr uint32_t offsetOf() {
        uint32_t at = 0, found = UINT32_MAX;
        ((found = found == UINT32_MAX && same<Member, Members>() ? at : found,
          at += Codec<MemberType<Members>>::kBytes),
         ...);
        return found;
    }
    // One member, read where it lies in `body`.
    template <auto Member> static MemberType<Member> get(const uint8_t* body) {
        constexpr uint32_t at = offsetOf<Member>();
        static_assert(at != UINT32_MAX, "not a member of these fields");
        return Codec<MemberType<Member>>::read(body + at);
    }
    static S read([[maybe_unused]] const uint8_t* p) {
        S s{};
        ((s.*Members = Codec<MemberType<Members>>::read(p),
          p += Codec<MemberType<Members>>::kBytes),
         ...);
        return s;
    }
    // Returns the end of what it wrote.
    static uint8_t* write(uint8_t* p, const S& s) {
        ((Codec<MemberType<Members>>::write(p, s.*Members),
          p += Codec<MemberType<Members>>::kBytes),
         ...);
        return p;
    }
    // f(i, value) for the i-th member of s, in body order.
    template <typename F> static void forEach(const S& s, F&& f) {
        [[maybe_unused]] size_t i = 0;
        (f(i++, s.*Members), ...);
    }

private:
    template <auto A, auto B> static constexpr bool same() {
        if constexpr (std::is_same_v<decltype(A), decltype(B)>)
            return A == B;
        else
            return false;
    }
};

// A struct stored as its fields (Codec<GpuActivity> : StructCodec<GpuActivityFields>).
template <typename F> struct StructCodec {
    static constexpr uint32_t kBytes = F::kBytes;
    static typename F::Struct read(const uint8_t* p) { return F::read(p); }
    static void write(uint8_t* p, const typename F::Struct& s) { F::write(p, s); }
};

// What a reader checks of a body's size before reading it, for every known record type.
struct BodyShape {
    enum Kind : uint8_t {
        Unknown,  // a type this build does not know: skipped (bodyBytes says how far)
        Fixed,    // exactly `head` bytes
        Prefixed, // `head` bytes of fields, then bytes to the body's end (a string)
        Block,    // a `head` ending in u32 rows, then `rows` rows of `row` bytes as columns
    };
    Kind kind = Unknown;
    uint32_t head = 0;
    uint32_t row = 0;

    // The rows of a block whose body has `bytes` bytes, or UINT32_MAX when the body size does
    // not match the rows its header announces (a damaged chunk).
    uint32_t blockRows(const uint8_t* body, uint32_t bytes) const {
        if (bytes < head) return UINT32_MAX;
        uint32_t rows;
        std::memcpy(&rows, body + head - 4, 4);
        return uint64_t(head) + uint64_t(rows) * row == bytes ? rows : UINT32_MAX;
    }
    // Whether a body of `bytes` bytes has this shape (Unknown: any size).
    bool fits(const uint8_t* body, uint32_t bytes) const {
        switch (kind) {
        case Fixed:
            return bytes == head;
        case Prefixed:
            return bytes >= head;
        case Block:
            return blockRows(body, bytes) != UINT32_MAX;
        case Unknown:
            break;
        }
        return true;
    }
};

// The body shapes. Each gives kShape, bytes(record) and write(at, record) for the writer, and
// read(body, bytes) for a body that fits kShape.

// Exactly the fields.
template <typename F> struct FixedBody {
    using Layout = F;
    using Record = typename F::Struct;
    static constexpr BodyShape kShape{BodyShape::Fixed, F::kBytes, 0};
    static constexpr uint32_t bytes(const Record&) { return F::kBytes; }
    static void write(uint8_t* p, const Record& r) { F::write(p, r); }
    static Record read(const uint8_t* p, uint32_t) { return F::read(p); }
};

// The fields, then the bytes of the string member `Tail` up to the body's end.
template <typename F, auto Tail> struct PrefixedBody {
    using Head = F;
    using Record = typename F::Struct;
    static_assert(std::is_same_v<MemberType<Tail>, std::string_view>);
    static constexpr BodyShape kShape{BodyShape::Prefixed, F::kBytes, 0};
    static uint32_t bytes(const Record& r) { return F::kBytes + uint32_t((r.*Tail).size()); }
    static void write(uint8_t* p, const Record& r) {
        p = F::write(p, r);
        if (!(r.*Tail).empty()) std::memcpy(p, (r.*Tail).data(), (r.*Tail).size());
    }
    static Record read(const uint8_t* p, uint32_t bytes) {
        Record r = F::read(p);
        r.*Tail = std::string_view(reinterpret_cast<const char*>(p) + F::kBytes, bytes - F::kBytes);
        return r;
    }
};

// A header whose last field is the u32 row count, then one column per field of Row (its first
// field's value for every row, then its second's, ...). The writer keeps the columns itself
// (io/strata/strata_block_buffer.h); readers take them through a column view.
template <typename HeadFields, typename RowFields> struct BlockBody {
    using Head = HeadFields;
    using Row = RowFields;
    static constexpr BodyShape kShape{BodyShape::Block, Head::kBytes, Row::kBytes};
    static constexpr uint32_t bytes(uint32_t rows) { return Head::kBytes + rows * Row::kBytes; }
};

// Value i of a column of fixed-width values.
template <typename T> T cell(const uint8_t* column, size_t i) {
    T v;
    std::memcpy(&v, column + i * sizeof(T), sizeof v);
    return v;
}

} // namespace strata::format
