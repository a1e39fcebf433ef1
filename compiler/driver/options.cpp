#include "compiler/driver/options.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace pz::driver {

std::optional<unsigned long long> parseWholeNumber(const std::string& text, unsigned long long lo,
                                                   unsigned long long hi) {
    if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    errno = 0;
    unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < lo || v > hi) return std::nullopt;
    return v;
}

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (std::filesystem::equivalent(a, b, ec)) return true;
    auto ca = std::filesystem::weakly_canonical(a, ec);
    if (ec) return false;
    auto cb = std::filesystem::weakly_canonical(b, ec);
    return !ec && ca == cb;
}

OptionParser& OptionParser::flag(const std::string& name, bool& into) {
    options_.push_back({name, Option::Kind::Flag, &into});
    return *this;
}

OptionParser& OptionParser::value(const std::string& name, std::string& into) {
    Option o{name, Option::Kind::Value};
    o.value = &into;
    options_.push_back(o);
    return *this;
}

OptionParser& OptionParser::values(const std::string& name, std::vector<std::string>& into) {
    Option o{name, Option::Kind::Values};
    o.values = &into;
    options_.push_back(o);
    return *this;
}

OptionParser& OptionParser::number(const std::string& name, unsigned long long& into, unsigned long long lo,
                                   unsigned long long hi) {
    Option o{name, Option::Kind::Number};
    o.number = &into;
    o.lo = lo, o.hi = hi;
    options_.push_back(o);
    return *this;
}

OptionParser& OptionParser::positionals(std::vector<std::string>& into, int min, int max, const std::string& what) {
    positionals_ = &into;
    minPositionals_ = min, maxPositionals_ = max;
    positionalWhat_ = what;
    return *this;
}

OptionParser& OptionParser::exclusive(std::vector<std::string> names) {
    exclusive_.push_back(std::move(names));
    return *this;
}

OptionParser::Option* OptionParser::find(const std::string& name) {
    for (auto& o : options_)
        if (o.name == name) return &o;
    return nullptr;
}

bool OptionParser::given(const std::string& name) const {
    for (const auto& o : options_)
        if (o.name == name) return o.given;
    return false;
}

int OptionParser::fail(const std::string& message) const {
    std::cerr << "pzc " << command_ << ": error: " << message << "\n" << usage_;
    return 2;
}

std::optional<int> OptionParser::parse(const Args& args) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::cout << usage_;
            return 0;
        }
        if (a.size() > 1 && a[0] == '-') {
            Option* o = find(a);
            if (!o) return fail("unknown option '" + a + "'");
            if (o->kind == Option::Kind::Flag) {
                *o->flag = true;
                o->given = true;
                continue;
            }
            if (i + 1 >= args.size()) return fail(a + " needs a value");
            const std::string& v = args[++i];
            if (o->given && o->kind != Option::Kind::Values) return fail(a + " is given twice");
            o->given = true;
            if (o->kind == Option::Kind::Value) {
                *o->value = v;
            } else if (o->kind == Option::Kind::Values) {
                o->values->push_back(v);
            } else {
                auto n = parseWholeNumber(v, o->lo, o->hi);
                if (!n)
                    return fail(a + " needs a whole number from " + std::to_string(o->lo) + " to " +
                                std::to_string(o->hi) + ", not '" + v + "'");
                *o->number = *n;
            }
            continue;
        }
        if (!positionals_ || (maxPositionals_ >= 0 && static_cast<int>(positionals_->size()) >= maxPositionals_))
            return fail("unexpected argument '" + a + "'");
        positionals_->push_back(a);
    }
    if (positionals_ && static_cast<int>(positionals_->size()) < minPositionals_)
        return fail("missing " + positionalWhat_);
    for (const auto& group : exclusive_) {
        std::string first;
        for (const auto& name : group) {
            if (!given(name)) continue;
            if (!first.empty()) return fail(first + " and " + name + " cannot be used together");
            first = name;
        }
    }
    if (stopAfterParse()) throw ParsedOnly{};
    return std::nullopt;
}

bool& OptionParser::stopAfterParse() {
    static bool stop = false;
    return stop;
}

}  // namespace pz::driver
