#include "analysis/arg_filter_match.h"

#include "analysis/arg_filter_fields.h"
#include "analysis/arg_filter_value.h"
#include "analysis/search_regex.h"
#include "util/ascii_case.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <regex>

namespace strata {

namespace {

enum Memo : uint8_t { kUntested = 0, kYes = 1, kNo = 2 };

FilterTerm containsTerm(const FilterTerm& name) {
    return {FilterOp::Contains, {}, name.value};
}

// One term made ready for one trace: its field, its arg keys' ids, and what it found for each
// name and arg set it was asked about.
class PreparedTerm {
public:
    PreparedTerm(const Trace& trace, const FilterTerm& term, const ArgFilterOptions& o)
        : trace_(&trace), term_(term),
          field_(term.op == FilterOp::Name ? ModelField::Name : modelFieldOf(term.key)),
          test_(term.op == FilterOp::Name ? containsTerm(term) : term, o.caseSensitive,
                isTimeField(field_)) {
        if (term.op == FilterOp::Name && o.regexNames) compileRegex(o.caseSensitive);
        if (field_ == ModelField::Name || field_ == ModelField::Category)
            strings_.assign(trace.strings().size(), kUntested);
        else if (field_ != ModelField::Dur)
            findKeys();
    }

    const FilterTerm& term() const { return term_; }
    ModelField field() const { return field_; }
    std::string error() const { return regexError_.empty() ? test_.error() : regexError_; }
    bool badRegex() const { return !regexError_.empty(); }
    // Cheapest first: names (a memo by id), the model's columns, then args.
    int cost() const {
        return (field_ == ModelField::Name || field_ == ModelField::Category) ? 0
               : field_ != ModelField::None                                   ? 1
                                                                              : 2;
    }

    bool slice(const Track& tr, SliceIndex i) {
        switch (field_) {
        case ModelField::Name:
            return string(tr.slices.name[i]);
        case ModelField::Category:
            return string(tr.slices.category[i]);
        case ModelField::None:
            break;
        default: {
            const FilterValue v = sliceFieldValue(*trace_, tr, i, field_, &scratch_);
            if (v.present) return test_.accepts(v);
        }
        }
        return argSet(tr.slices.args[i]);
    }

    bool instant(const Track& tr, uint32_t i) {
        if (field_ == ModelField::Name) return string(tr.instants.name[i]);
        if (field_ == ModelField::Category) return string(tr.instants.category[i]);
        return argSet(tr.instants.args[i]);
    }

    // Whether some arg set carries the key (the first one found ends the look; looked for once).
    bool keyInArgs() const {
        if (!keyInArgs_) {
            keyInArgs_ = false;
            const ArgStore& store = trace_->argStore();
            for (ArgSetId s = 0; s < store.setCount() && !*keyInArgs_; ++s)
                for (StringId k : keys_)
                    if (store.find(s, k, nullptr)) keyInArgs_ = true;
        }
        return *keyInArgs_;
    }

    // Whether some slice has the field in the model's columns.
    bool fieldInModel() {
        if (field_ == ModelField::None) return false;
        if (field_ == ModelField::Name || field_ == ModelField::Category) return true;
        for (const Track& tr : trace_->tracks())
            for (SliceIndex i = 0; i < tr.slices.size(); ++i)
                if (sliceFieldValue(*trace_, tr, i, field_, &scratch_).present) return true;
        return false;
    }

private:
    const Trace* trace_;
    FilterTerm term_;
    ModelField field_;
    TermTest test_;
    std::optional<std::regex> regex_;
    std::string regexError_;
    std::vector<StringId> keys_;   // the arg keys it reads (any case)
    std::vector<uint8_t> strings_; // Memo per string id (names, categories)
    std::vector<uint8_t> sets_;    // Memo per arg set
    mutable std::optional<bool> keyInArgs_;
    std::string scratch_;

    void compileRegex(bool caseSensitive) {
        regex_ = compileSearchRegex(term_.value, caseSensitive, &regexError_);
    }

    // Every interned string that reads as the key or as Kineto's arg key for the field.
    void findKeys() {
        const std::string_view kineto = kinetoArgKey(field_);
        const StringPool& pool = trace_->strings();
        for (StringId id = 1; id < pool.size(); ++id) {
            const std::string_view s = pool.view(id);
            if (equalsIgnoreAsciiCase(s, term_.key) ||
                (!kineto.empty() && equalsIgnoreAsciiCase(s, kineto)))
                keys_.push_back(id);
        }
        if (!keys_.empty()) sets_.assign(trace_->argStore().setCount(), kUntested);
    }

    bool string(StringId id) {
        uint8_t& memo = strings_[id];
        if (memo != kUntested) return memo == kYes;
        const std::string_view s = trace_->str(id);
        bool yes;
        if (term_.op != FilterOp::Name)
            yes = test_.accepts({true, std::nullopt, s});
        else if (regex_)
            yes = std::regex_search(s.begin(), s.end(), *regex_);
        else
            yes = test_.contains(s);
        memo = yes ? kYes : kNo;
        return yes;
    }

    bool argSet(ArgSetId id) {
        if (id >= sets_.size()) return false; // kNoArgs, or no set has the key
        uint8_t& memo = sets_[id];
        if (memo != kUntested) return memo == kYes;
        bool yes = false;
        ArgValue v;
        for (StringId k : keys_) {
            if (!trace_->argStore().find(id, k, &v)) continue;
            yes = test_.accepts(argFieldValue(field_, v, &scratch_));
            break;
        }
        memo = yes ? kYes : kNo;
        return yes;
    }
};

std::string noKey(const FilterTerm& t) {
    return "no event has key '" + t.key + "'";
}

// The terms' keys checked before any event is: a key that no event has ends the search.
bool checkKeys(std::vector<PreparedTerm>& terms, ArgFilterResult* r) {
    bool anyKnown = false;
    const FilterTerm* unknown = nullptr;
    for (const PreparedTerm& t : terms) {
        if (t.term().op == FilterOp::Name) continue;
        if (t.field() != ModelField::None || t.keyInArgs())
            anyKnown = true;
        else if (!unknown)
            unknown = &t.term();
    }
    if (unknown) {
        r->note = noKey(*unknown);
        r->unknownKeys = !anyKnown;
        return false;
    }
    for (const PreparedTerm& t : terms) {
        if (t.error().empty()) continue;
        r->error = t.error();
        r->badRegex = t.badRegex();
        return false;
    }
    return true;
}

} // namespace

ArgFilterResult matchArgFilter(const Trace& trace, const ArgFilter& filter,
                               const ArgFilterOptions& options) {
    ArgFilterResult r;
    if (filter.terms.empty()) return r;
    std::vector<PreparedTerm> terms;
    terms.reserve(filter.terms.size());
    for (const FilterTerm& t : filter.terms) terms.emplace_back(trace, t, options);
    if (!checkKeys(terms, &r)) return r;
    std::stable_sort(terms.begin(), terms.end(), [](const PreparedTerm& a, const PreparedTerm& b) {
        return a.cost() < b.cost();
    });

    const auto& tracks = trace.tracks();
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const Track& tr = tracks[t];
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            bool all = true;
            for (PreparedTerm& term : terms)
                if (!(all = term.slice(tr, i))) break;
            if (all) r.slices.push_back({t, i});
        }
        for (uint32_t i = 0; i < tr.instants.size(); ++i) {
            bool all = true;
            for (PreparedTerm& term : terms)
                if (!(all = term.instant(tr, i))) break;
            if (all) r.instants.push_back({t, i});
        }
    }
    if (r.slices.empty() && r.instants.empty()) {
        for (PreparedTerm& t : terms) {
            if (t.term().op == FilterOp::Name || t.fieldInModel() || t.keyInArgs()) continue;
            r.note = noKey(t.term());
            break;
        }
    }
    return r;
}

} // namespace strata
